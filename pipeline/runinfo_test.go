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

	"synth/config"
	"synth/config/configtest"
	"synth/generators/writer"
	"synth/llm/llmtest"
	"synth/pyenv"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// TestRunJSONRoundTrip: run.json's keys are snake_case, every setting set;
// a config read back from it hashes as the config that wrote it, and an
// edited setting in run.json changes the hash.
func TestRunJSONRoundTrip(t *testing.T) {
	for name, cfg := range map[string]config.Config{"default": config.Default(), "rich": configtest.Rich()} {
		t.Run(name, func(t *testing.T) {
			cfg.Sources.Types = []string{} // empty lists read back as []
			dir := t.TempDir()
			ri := &runinfo.RunInfo{ConfigHash: cfg.Hash(), Config: cfg, Stages: map[string]time.Time{"collect": time.Now()}, Counts: map[string]int{"tasks": 1},
				Python:     runinfo.PythonInfo{Executable: pyenv.Sandbox.Python(), Packages: map[string]string{"pandas": "1.5.3"}},
				Shards:     []runinfo.ShardInfo{{Shard: "1-of-2", Plan: "p", Host: "h", Tasks: 1, Stopped: "budget", Finished: time.Now()}},
				StageTimes: []schemas.StageTime{{Stage: "collect", In: 1, Out: 1}},
				Writer:     &runinfo.WriterCounts{Model: "m", Proof: "sandbox", Stats: writer.Stats{Drafts: 2, Dropped: map[string]int{"trivial_check": 1}}},
				Finished:   time.Now(), Plan: "p", Version: "v"}
			if err := ri.Save(dir); err != nil {
				t.Fatal(err)
			}
			var raw map[string]any
			b, _ := os.ReadFile(filepath.Join(dir, rundir.RunInfo))
			if err := json.Unmarshal(b, &raw); err != nil {
				t.Fatal(err)
			}
			snakeKeys(t, raw, "")
			back, err := runinfo.Read(dir)
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
			var other runinfo.RunInfo
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
	cfg := configtest.Rich()
	dir := t.TempDir()
	legacy := cfg.LegacyJSON() // Go's field names, as encoding/json wrote them before the json keys
	if !strings.Contains(string(legacy), `"MaxTurns":`) {
		t.Fatalf("not the legacy form: %s", legacy)
	}
	doc := `{"config_hash": "` + cfg.Hash() + `", "config": ` + string(legacy) + `, "stages": {}, "counts": {}}`
	if err := os.WriteFile(filepath.Join(dir, rundir.RunInfo), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := runinfo.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Config.Hash() != back.ConfigHash || back.Config.Teacher.MaxTurns != cfg.Teacher.MaxTurns || *back.Config.Teacher.TopP != 0.95 ||
		back.Config.LLM.Endpoints[0].BaseURL != cfg.LLM.Endpoints[0].BaseURL || back.Config.Tasks.PerFile != cfg.Tasks.PerFile {
		t.Errorf("legacy run.json reads as %+v", back.Config)
	}
}
