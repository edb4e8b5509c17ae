package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"reflect"

	"go.yaml.in/yaml/v3"

	"synth/agent"
	"synth/dataset"
	"synth/filters"
	"synth/generators"
	"synth/generators/writer"
	"synth/llm"
	"synth/rollout"
	"synth/sandbox"
	"synth/sources"
)

// Config is synth.yaml: every setting of a build. Its zero value is not
// useful; start from Default, which is the offline quickstart.
type Config struct {
	// Seed makes the corpus, the task parameters and the split reproducible.
	Seed int64 `yaml:"seed" json:"seed"`
	// Concurrency caps the rollouts in flight; 0: the sandbox slots.
	Concurrency int            `yaml:"concurrency" json:"concurrency"`
	Sources     sources.Config `yaml:"sources" json:"sources"`
	Tasks       TasksConfig    `yaml:"tasks" json:"tasks"`
	Teacher     agent.Config   `yaml:"teacher" json:"teacher"`
	LLM         llm.Config     `yaml:"llm" json:"llm"`
	Sandbox     sandbox.Config `yaml:"sandbox" json:"sandbox"`
	Filters     filters.Config `yaml:"filters" json:"filters"`
	Bench       BenchConfig    `yaml:"bench" json:"bench"`
	Dataset     dataset.Config `yaml:"dataset" json:"dataset"`
}

// TasksConfig is how tasks are written: the writer's settings and, for the
// llm writer, its own section.
type TasksConfig struct {
	generators.Config `yaml:",inline"`
	LLM               writer.Options `yaml:"llm" json:"llm"`
}

// BenchConfig is how the benchmark is split off the tasks.
type BenchConfig struct {
	// Fraction of the input files whose tasks go to the benchmark.
	Fraction float64 `yaml:"fraction" json:"fraction"`
	// Seed of the split; 0: the run's seed.
	Seed int64 `yaml:"seed" json:"seed"`
	// Exclude are earlier benchmark folders this build's benchmark must
	// share no input file and no near-duplicate query with (a fresh split;
	// synth build --exclude-bench): tasks that do are left out of both
	// sides, and the card names the benchmarks avoided.
	Exclude []string `yaml:"exclude" json:"exclude,omitempty"`
}

// Default is the quickstart: the built-in corpus, template tasks, the
// reference teacher, PyBench's format.
func Default() Config {
	return Config{
		Seed:    1,
		Sources: sources.Config{Specs: []string{"sample"}},
		Tasks: TasksConfig{Config: generators.Config{Writer: "template", Langs: []string{"en", "zh"}, PerFile: 3,
			Composed: generators.ComposedConfig{Share: 1, Depth: 3}}},
		Teacher: agent.Config{Kind: "reference", Format: "pybench", Samples: 1, MaxTurns: 10, MaxObservation: 8000},
		Bench:   BenchConfig{Fraction: 0.4},
	}
}

// Load reads a config file over the defaults. Unknown keys are errors that
// name the file, the line and the nearest known key.
func Load(path string) (Config, error) {
	cfg := Default()
	data, err := os.ReadFile(path)
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	if err := decodeStrict(path, data, &cfg); err != nil {
		return cfg, err
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

func decodeStrict(path string, data []byte, cfg *Config) error {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return fmt.Errorf("config %s: %s", path, cleanYAMLError(err))
	}
	if len(root.Content) == 0 {
		return nil // an empty file: the defaults
	}
	if err := checkKeys(path, root.Content[0], cfg); err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil {
		return fmt.Errorf("config %s: %s", path, cleanYAMLError(err))
	}
	return nil
}

// Hash is a short hash of the settings that shape a run's results, for
// run.json and the dataset card. Settings that change only how fast or how
// far a run goes — concurrency, slots, budgets, timeouts, retries, the
// endpoints' addresses, keys and rate limits — are left out, so a run can
// be resumed with them changed. The hash is taken over the config's JSON
// under Go's field names (hashJSON), so it is the same for a config read
// back from run.json and for one whose keys were renamed.
func (c Config) Hash() string {
	c.Concurrency = 0
	c.Sandbox.Slots = 0
	c.Sandbox.Python = "" // the environment is compared by its fingerprint (sameEnvironment)
	c.LLM.MaxCostUSD, c.LLM.MaxTokens, c.LLM.Timeout, c.LLM.MaxRetries, c.LLM.NoCache = 0, 0, 0, 0, false
	c.LLM.BreakerFailures, c.LLM.BreakerPause = 0, 0
	eps := make([]llm.Endpoint, len(c.LLM.Endpoints))
	for i, e := range c.LLM.Endpoints {
		eps[i] = llm.Endpoint{Model: e.Model}
		if len(e.Extra) > 0 { // "extra: {}" read back from YAML hashes as no extra
			eps[i].Extra = e.Extra
		}
	}
	c.LLM.Endpoints = eps
	c.Tasks.LLM.Concurrency = 0
	c.Dataset.CPUHourUSD = 0 // a price for the card, not what the rows are
	// How sources are reached, not what they give: left out (and
	// omitted when empty, so configs from before these keys hash alike).
	c.Sources.Contact, c.Sources.IdleTimeout, c.Sources.Kaggle.LegacyURL = "", "", ""
	nilEmpty(reflect.ValueOf(&c).Elem())
	sum := sha256.Sum256(hashJSON(c))
	return hex.EncodeToString(sum[:8])
}

// LegacyJSON is c as an earlier synth wrote it into run.json: every field
// under its Go name (Seed, MaxTurns, ...), the form the hash is taken over.
// rundir.ReadRunInfo still reads it, so those runs resume.
func (c Config) LegacyJSON() []byte { return hashJSON(c) }

// nilEmpty sets the empty slices and maps among v's fields, and its
// fields' fields, to nil: a config read from YAML (licenses: []) hashes as
// the same config built in Go (no licenses). It follows no pointers and no
// slice elements, so it changes nothing a caller shares.
func nilEmpty(v reflect.Value) {
	for i := range v.NumField() {
		f := v.Field(i)
		if !f.CanSet() {
			continue
		}
		switch f.Kind() {
		case reflect.Slice, reflect.Map:
			if f.Len() == 0 && !f.IsNil() {
				f.Set(reflect.Zero(f.Type()))
			}
		case reflect.Struct:
			nilEmpty(f)
		}
	}
}

// YAML renders the resolved config.
func (c Config) YAML() string {
	b, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Sprintf("# cannot render config: %v\n", err)
	}
	return string(b)
}

func cleanYAMLError(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return fmt.Sprint(te.Errors)
	}
	return err.Error()
}

// InFlight is how many rollouts the build runs at once (see rollout.InFlight).
func (c Config) InFlight() int {
	return rollout.InFlight(c.Concurrency, c.Teacher.Kind, c.Sandbox.Slots)
}
