package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"synth/agent"
	"synth/bench"
	"synth/llm"
	"synth/rundir"
	"synth/sandbox"
)

// Config is what synth eval runs: a teacher on a benchmark, in the same
// sandbox, prompt format and checks that make the training data.
type Config struct {
	// Bench is the benchmark folder (tasks.jsonl and data/).
	Bench string `yaml:"bench"`
	// Teacher: kind openai, reference, empty or replay; format, samples,
	// max_turns, model, temperature, replay (the trajectory file).
	Teacher agent.Config   `yaml:"teacher"`
	LLM     llm.Config     `yaml:"llm"`
	Sandbox sandbox.Config `yaml:"sandbox"`
	Judge   JudgeConfig    `yaml:"judge"`
	// Concurrency caps the rollouts in flight; 0: the sandbox slots.
	Concurrency int `yaml:"concurrency"`
	// InfraRetries is how often a rollout that failed for infrastructure
	// reasons is run again (default 2; negative: never).
	InfraRetries int `yaml:"infra_retries"`
	// Tasks, if set, keeps only the tasks with these indexes.
	Tasks []string `yaml:"tasks"`
	// Scoring is bench.ScoringStrict or bench.ScoringPyBench; empty: the
	// benchmark's own (bench.json), strict for one without.
	Scoring string `yaml:"scoring"`
	// PyBenchPrompt is the system prompt of the pybench scoring mode:
	// agent.PromptGPT (default) or agent.PromptLocal.
	PyBenchPrompt string `yaml:"pybench_prompt"`
	// SkipVariants leaves out the benchmark's variant split
	// (bench.VariantDir), which is otherwise evaluated too, with the same
	// teacher, into the results folder's bench.VariantDir.
	SkipVariants bool `yaml:"skip_variants"`
}

// Options are how an eval runs, beside its config.
type Options struct {
	Out      string    // the results folder (written, and resumed)
	Version  string    // synth's version, for eval.json
	Log      io.Writer // progress lines; nil: discard
	Terminal bool      // a live progress line instead of periodic ones
	// LLMOptions are passed to the teacher's and the judge's llm clients
	// (tests shorten the retry backoff with llm.WithBackoff).
	LLMOptions []llm.Option
	// Backend, if set, runs the sandboxes instead of a new backend made from
	// the config's sandbox section; the caller closes it.
	Backend sandbox.Backend
}

// Result is what an eval wrote.
type Result struct {
	Summary bench.Summary
	Out     string
	Report  string // path of report.md
	Ran     int    // rollouts run now (the rest were resumed)
	Judged  int    // judgements made now
	// UpToDate says that nothing was left to run.
	UpToDate bool
	Elapsed  time.Duration
}

// ErrConfigChanged is returned when the results folder holds an eval of
// another benchmark, teacher or setting (rundir.ErrConfigChanged, which a
// build's run directory shares).
var ErrConfigChanged = rundir.ErrConfigChanged

// Teacher kinds synth eval knows.
const (
	TeacherOpenAI    = "openai"
	TeacherReference = "reference"
	TeacherEmpty     = "empty"
	// TeacherWeak does each task's first step only (agent.Weak).
	TeacherWeak   = "weak"
	TeacherReplay = "replay"
)

// evalInfo is eval.json: what made a results folder.
type evalInfo struct {
	Key       string       `json:"key"`
	Bench     string       `json:"bench"`
	BenchHash string       `json:"bench_hash"`
	Teacher   agent.Config `json:"teacher"`
	Version   string       `json:"synth_version"`
	Started   time.Time    `json:"started"`
	Finished  time.Time    `json:"finished,omitzero"`
}

func writeSummary(out string, s bench.Summary) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	tmp := filepath.Join(out, rundir.EvalSummary+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return os.Rename(tmp, filepath.Join(out, rundir.EvalSummary))
}

// JudgeConfig is the optional LLM judge of an eval, with its own endpoints.
// Its opinions are reported beside the unit tests' verdicts, never instead.
type JudgeConfig struct {
	// Mode: "" (no judge), score (pass/fail with 1–10 scores of reasoning
	// and code quality) or pairwise (win/tie/lose against Baseline).
	Mode string `yaml:"mode"`
	// LLM holds the judge's endpoints, apart from the teacher's.
	LLM llm.Config `yaml:"llm"`
	// Model the judge asks; empty: its first endpoint's.
	Model string `yaml:"model"`
	// Baseline of pairwise mode: "reference" (the benchmark's
	// reference_trajectories.jsonl), an eval's results folder, or a
	// trajectory file (synth's or PyBench's), matched by task id or index.
	Baseline string `yaml:"baseline"`
	// MaxChars caps the characters of a run shown to the judge; default 12000.
	MaxChars int `yaml:"max_chars"`
}

// Judge modes.
const (
	JudgeScore    = "score"
	JudgePairwise = "pairwise"
)
