package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"synth/generators/writer"
	"synth/llm"
	"synth/llm/llmtest"
	"synth/pyenv"
	"synth/rundir"
	"synth/schemas"
)

// richConfig sets a value in every kind of config field: pointers, maps of
// any, maps and slices of structs, durations, nested sections.
func richConfig() Config {
	cfg := Default()
	temp, top, wtemp := 0.7, 0.95, 0.3
	cfg.Seed, cfg.Concurrency = 42, 8
	cfg.Teacher.Kind, cfg.Teacher.Model, cfg.Teacher.Format = "openai", "qwen2.5-coder", "openai-tools"
	cfg.Teacher.Temperature, cfg.Teacher.TopP, cfg.Teacher.MaxReplyTokens = &temp, &top, 2048
	cfg.Teacher.SystemPrompts = []string{"a", "b"}
	cfg.LLM.Endpoints = []llm.Endpoint{{BaseURL: "http://127.0.0.1:8000/v1", Model: "qwen2.5-coder", KeyEnv: "MY_KEY", Concurrency: 4,
		Extra: map[string]any{"repetition_penalty": 1.05, "seed": 7, "stop": []any{"</s>"}, "chat_template_kwargs": map[string]any{"enable_thinking": false}}}}
	cfg.LLM.Timeout, cfg.LLM.MaxRetries, cfg.LLM.MaxCostUSD = 90*time.Second, 3, 12.5
	cfg.LLM.Extra = map[string]any{"presence_penalty": 0.1}
	cfg.LLM.Prices = map[string]llm.Price{"qwen2.5-coder": {Input: 0.1, Output: 0.2}}
	cfg.Tasks.Writer, cfg.Tasks.Templates = "llm", []string{"table.sort"}
	cfg.Tasks.LLM.Temperature, cfg.Tasks.LLM.Critic = &wtemp, true
	cfg.Tasks.LLM.Dictionary = map[string][]writer.TaskType{"table": {{Category: "data", Subcategory: "sort", Keywords: []string{"sort"}}}}
	cfg.Sources.Specs, cfg.Sources.Licenses = []string{"sample", "local:./data"}, []string{"cc0"}
	cfg.Sources.Kaggle.Tags = []string{"finance"}
	cfg.Sandbox.Slots, cfg.Sandbox.Limits.Memory = 4, "2GiB"
	cfg.Filters.Dedup.NearThreshold, cfg.Filters.Gate.MaxFailedCells = 0.8, 0.5
	cfg.Bench.Fraction = 0.3
	cfg.Dataset.Format, cfg.Dataset.JSONL = "openai-tools", true
	return cfg
}

// TestConfigHashStable: the hash of a config does not depend on run.json's
// keys: it is the one earlier synth versions computed, so their runs
// resume.
func TestConfigHashStable(t *testing.T) {
	for name, c := range map[string]struct {
		cfg  Config
		want string
	}{
		"default": {Default(), "34445ef10e559e44"},
		"rich":    {richConfig(), "d43ffb3e4a44aedc"},
	} {
		if got := c.cfg.Hash(); got != c.want {
			t.Errorf("%s: hash %s, want %s (as before run.json had snake_case keys)", name, got, c.want)
		}
	}
}

// TestConfigHashIgnoresHowSourcesAreReached: the contact, the idle
// timeout and the legacy Kaggle address change how files are fetched, not
// which, so a run resumes with them changed.
func TestConfigHashIgnoresHowSourcesAreReached(t *testing.T) {
	cfg := richConfig()
	cfg.Sources.Contact, cfg.Sources.IdleTimeout, cfg.Sources.Kaggle.LegacyURL = "ann@example.org", "5s", "http://127.0.0.1:1/api/v1"
	if got, want := cfg.Hash(), richConfig().Hash(); got != want {
		t.Errorf("hash %s with the contact, idle timeout and legacy URL set, %s without", got, want)
	}
}

// TestRunJSONRoundTrip: run.json's keys are snake_case, every setting set;
// a config read back from it hashes as the config that wrote it, and an
// edited setting in run.json changes the hash.
func TestRunJSONRoundTrip(t *testing.T) {
	for name, cfg := range map[string]Config{"default": Default(), "rich": richConfig()} {
		t.Run(name, func(t *testing.T) {
			cfg.Sources.Types = []string{} // empty lists read back as []
			dir := t.TempDir()
			ri := &RunInfo{ConfigHash: cfg.Hash(), Config: cfg, Stages: map[string]time.Time{"collect": time.Now()}, Counts: map[string]int{"tasks": 1},
				Python:     PythonInfo{Executable: pyenv.Sandbox.Python(), Packages: map[string]string{"pandas": "1.5.3"}},
				Shards:     []ShardInfo{{Shard: "1-of-2", Plan: "p", Host: "h", Tasks: 1, Stopped: "budget", Finished: time.Now()}},
				StageTimes: []schemas.StageTime{{Stage: "collect", In: 1, Out: 1}},
				Writer:     &WriterCounts{Model: "m", Proof: "sandbox", Stats: writer.Stats{Drafts: 2, Dropped: map[string]int{"trivial_check": 1}}},
				Finished:   time.Now(), Plan: "p", Version: "v"}
			if err := ri.save(dir); err != nil {
				t.Fatal(err)
			}
			var raw map[string]any
			b, _ := os.ReadFile(filepath.Join(dir, rundir.RunInfo))
			if err := json.Unmarshal(b, &raw); err != nil {
				t.Fatal(err)
			}
			snakeKeys(t, raw, "")
			back, err := readRunInfo(dir)
			if err != nil {
				t.Fatal(err)
			}
			if h := back.Config.Hash(); h != cfg.Hash() || back.ConfigHash != cfg.Hash() {
				t.Fatalf("hash %s after run.json, %s before", h, cfg.Hash())
			}
			edited := strings.Replace(string(b), `"max_turns": 10`, `"max_turns": 11`, 1)
			if edited == string(b) {
				t.Fatalf("run.json has no teacher max_turns:\n%s", b)
			}
			var other RunInfo
			if err := json.Unmarshal([]byte(edited), &other); err != nil {
				t.Fatal(err)
			}
			if other.Config.Hash() == cfg.Hash() {
				t.Error("a config edited in run.json hashes the same")
			}
		})
	}
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// dataKeys are the run.json objects keyed by data (model names, stage
// names, user body fields), whose own keys are not checked, only what
// they hold.
var dataKeys = map[string]bool{
	"config.llm.prices": true, "config.llm.extra": true, "config.llm.endpoints.extra": true,
	"config.tasks.llm.dictionary": true, "stages": true, "counts": true, "python.packages": true, "python.distributions": true,
	"writer.dropped": true,
}

// snakeKeys reports every key of v, at any depth, that is not snake_case.
func snakeKeys(t *testing.T, v any, at string) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			path := strings.TrimPrefix(at+"."+k, ".")
			if dataKeys[at] {
				path = at
			} else if !snakeCase.MatchString(k) {
				t.Errorf("run.json key %q (at %s) is not snake_case", k, path)
			}
			snakeKeys(t, x, path)
		}
	case []any:
		for _, x := range v {
			snakeKeys(t, x, at)
		}
	}
}

// TestRunJSONKeysAndSecrets: the run.json of a real build has snake_case
// keys throughout, shows the sampling settings sent, and no file of the
// run holds the API key.
func TestRunJSONKeysAndSecrets(t *testing.T) {
	needPython(t)
	const secret = "sk-test-0123456789abcdefSECRET"
	t.Setenv("SYNTH_TEST_KEY", secret)
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, referenceSolver(t, dir))
	srv.RequireKey(secret)
	cfg := openaiConfig(srv.URL)
	cfg.LLM.Endpoints[0].KeyEnv = "SYNTH_TEST_KEY"
	cfg.LLM.Endpoints[0].Extra = map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}
	temp, top := 0.4, 0.9
	cfg.Teacher.Temperature, cfg.Teacher.TopP = &temp, &top
	if _, err := Build(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, rundir.RunInfo))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	snakeKeys(t, raw, "")
	teacher := raw["config"].(map[string]any)["teacher"].(map[string]any)
	if teacher["temperature"] != 0.4 || teacher["top_p"] != 0.9 || teacher["kind"] != "openai" {
		t.Errorf("run.json teacher %v", teacher)
	}
	if c := srv.Calls(); len(c) == 0 || c[0].Body["temperature"] != 0.4 || c[0].Body["top_p"] != 0.9 {
		t.Errorf("requests do not send the settings run.json shows")
	}
	card, _ := os.ReadFile(filepath.Join(dir, "dataset", "README.md"))
	for _, want := range []string{"- temperature: `0.4`", "- top_p: `0.9`", "- chat_template_kwargs: `{\"enable_thinking\":false}`"} {
		if !strings.Contains(string(card), want) {
			t.Errorf("card lacks %q", want)
		}
	}
	if strings.Contains(string(card), "<nil>") {
		t.Error("card shows <nil>")
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(data), secret) || strings.Contains(string(data), "0123456789abcdefSECRET") {
			t.Errorf("%s holds the API key", p)
		}
		return nil
	})
}

// TestRunJSONLegacyConfig: a run.json whose config an earlier synth wrote
// under Go's field names reads back as the same config, with the hash it
// recorded.
func TestRunJSONLegacyConfig(t *testing.T) {
	cfg := richConfig()
	dir := t.TempDir()
	legacy := hashJSON(cfg) // Go's field names, as encoding/json wrote them before the json keys
	if !strings.Contains(string(legacy), `"MaxTurns":`) {
		t.Fatalf("not the legacy form: %s", legacy)
	}
	doc := `{"config_hash": "` + cfg.Hash() + `", "config": ` + string(legacy) + `, "stages": {}, "counts": {}}`
	if err := os.WriteFile(filepath.Join(dir, rundir.RunInfo), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := readRunInfo(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Config.Hash() != back.ConfigHash || back.Config.Teacher.MaxTurns != cfg.Teacher.MaxTurns || *back.Config.Teacher.TopP != 0.95 ||
		back.Config.LLM.Endpoints[0].BaseURL != cfg.LLM.Endpoints[0].BaseURL || back.Config.Tasks.PerFile != cfg.Tasks.PerFile {
		t.Errorf("legacy run.json reads as %+v", back.Config)
	}
}
