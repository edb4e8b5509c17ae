package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"synth/agent"
	"synth/bench"
	"synth/checks/adversary"
	"synth/filters"
	"synth/llm"
	"synth/rollout"
	"synth/rundir"
	"synth/sandbox"
	"synth/schemas"
	"synth/sources"
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
	TeacherReplay    = "replay"
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

// evalRun is one eval in progress.
type evalRun struct {
	cfg      Config
	opts     Options
	log      io.Writer
	tasks    []schemas.Task
	teacher  agent.Teacher
	format   agent.Format
	replay   *agent.Replay
	endpoint rollout.Endpoint // the teacher's client, when it is at an endpoint
	backend  sandbox.Backend
	judge    *judge
	benchDir string
	scoring  string // bench.ScoringStrict or bench.ScoringPyBench
}

// Run rolls out every task of the benchmark (Teacher.Samples times),
// verifies each rollout with the task's checks, optionally asks an LLM
// judge, and writes results.jsonl, summary.json and report.md into
// opts.Out. Infrastructure failures are retried and, if they persist,
// recorded apart; a rerun retries them. Interrupted (ctx done), it lets the
// rollouts in flight finish, keeps them, and returns ctx's error; running it
// again continues. A results folder belongs to one benchmark, teacher and
// setting: another one is ErrConfigChanged.
func Run(ctx context.Context, cfg Config, opts Options) (*Result, error) {
	start := time.Now()
	r := &evalRun{cfg: cfg, opts: opts, log: opts.Log, benchDir: cfg.Bench}
	if r.log == nil {
		r.log = io.Discard
	}
	if err := r.setScoring(); err != nil {
		return nil, err
	}
	if err := r.loadTasks(); err != nil {
		return nil, err
	}
	if err := r.setTeacher(); err != nil {
		return nil, err
	}
	hash, err := bench.ContentHash(cfg.Bench)
	if err != nil {
		return nil, err
	}
	if err := r.openOut(hash); err != nil {
		return nil, err
	}
	if r.judge, err = newJudge(cfg.Judge, cfg.Bench, opts.Out, opts.LLMOptions); err != nil {
		return nil, err
	}
	if r.backend = opts.Backend; r.backend == nil {
		if r.backend, err = sandbox.New(rollout.BackendConfig(r.cfg.Sandbox, r.concurrency())); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		defer r.backend.Close()
	}

	jobs := r.jobs()
	results, ran, judged, err := r.runAll(ctx, jobs)
	if err != nil {
		return nil, err
	}
	sum := bench.Score(r.tasks, results, bench.ScoreOptions{Samples: r.samples(), TurnCap: r.turnCap()})
	info := r.teacher.Info()
	sum.Model, sum.Teacher, sum.Bench, sum.BenchHash = info.Model, info.Kind, cfg.Bench, hash
	sum.Scoring = r.scoring
	report := filepath.Join(opts.Out, rundir.EvalReport)
	if err := writeSummary(opts.Out, sum); err != nil {
		return nil, err
	}
	if err := os.WriteFile(report, []byte(bench.Report(sum, r.tasks, results)), 0o644); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	return &Result{Summary: sum, Out: opts.Out, Report: report, Ran: ran, Judged: judged,
		UpToDate: ran == 0 && judged == 0, Elapsed: time.Since(start)}, nil
}

func (r *evalRun) loadTasks() error {
	tasks, err := bench.Load(r.cfg.Bench)
	if err != nil {
		return err
	}
	if len(r.cfg.Tasks) > 0 {
		var keep []schemas.Task
		for _, t := range tasks {
			if slices.Contains(r.cfg.Tasks, t.Index) {
				keep = append(keep, t)
			}
		}
		if len(keep) == 0 {
			idx := make([]string, len(tasks))
			for i, t := range tasks {
				idx[i] = t.Index
			}
			return fmt.Errorf("bench %s: none of the tasks %s is in it (its indexes: %s)", r.cfg.Bench, strings.Join(r.cfg.Tasks, ","), abbreviate(idx, 10))
		}
		tasks = keep
	}
	if len(tasks) == 0 {
		return fmt.Errorf("bench %s: %s has no tasks", r.cfg.Bench, bench.TasksFile)
	}
	usable := tasks[:0]
	for i := range tasks {
		if err := noSymlinks(r.cfg.Bench, &tasks[i]); err != nil {
			return err
		}
		if r.scoring == bench.ScoringPyBench && r.withoutMissingInputs(&tasks[i]) {
			continue // PyBench's harness runs it all the same, without them
		}
		if err := bench.Usable(r.cfg.Bench, &tasks[i]); err != nil {
			fmt.Fprintf(r.log, "eval: skipped %v\n", err)
			continue
		}
		usable = append(usable, tasks[i])
	}
	if len(usable) == 0 {
		return fmt.Errorf("bench %s: none of its %d tasks can run (see the lines above)", r.cfg.Bench, len(tasks))
	}
	r.tasks = usable
	return nil
}

// setScoring settles the scoring mode: the config's, else the benchmark's.
func (r *evalRun) setScoring() error {
	r.scoring = r.cfg.Scoring
	if r.scoring == "" {
		var err error
		if r.scoring, err = bench.ReadScoring(r.cfg.Bench); err != nil {
			return err
		}
	}
	if err := bench.CheckScoring(r.scoring); err != nil {
		return err
	}
	if r.scoring != bench.ScoringPyBench && r.cfg.PyBenchPrompt != "" {
		return fmt.Errorf("a PyBench prompt (%s) goes with the pybench scoring mode, not %s", r.cfg.PyBenchPrompt, r.scoring)
	}
	return nil
}

// withoutMissingInputs drops the input files of t that the benchmark lacks
// and says whether that made it usable; a task missing nothing is left to
// bench.Usable. PyBench's harness gives a model the task whether or not its
// files are there, so the pybench mode scores such a task (most fail)
// instead of leaving it out of the count.
func (r *evalRun) withoutMissingInputs(t *schemas.Task) bool {
	var kept []schemas.TaskFile
	var missing []string
	for _, f := range t.Files {
		if _, err := os.Stat(filepath.Join(r.cfg.Bench, bench.DataDir, f.Name)); err != nil {
			missing = append(missing, "data/"+f.Name)
			continue
		}
		kept = append(kept, f)
	}
	if len(missing) == 0 {
		return false
	}
	t.Files = kept
	if err := bench.Usable(r.cfg.Bench, t); err != nil {
		return false
	}
	fmt.Fprintf(r.log, "eval: task %s runs without its missing input %s, as PyBench's harness would\n", t.Index, strings.Join(missing, ", "))
	return true
}

func (r *evalRun) setTeacher() error {
	tc := r.cfg.Teacher
	if r.scoring == bench.ScoringPyBench {
		switch tc.Format {
		case "", agent.NewPyBench().Name():
		default:
			return fmt.Errorf("teacher format %s: the pybench scoring mode talks PyBench's own format; drop the format or score with --scoring strict", tc.Format)
		}
		h, err := agent.NewPyBenchHarness(r.cfg.PyBenchPrompt)
		if err != nil {
			return err
		}
		r.format = h
		return r.setTeacherKind(tc)
	}
	switch tc.Format {
	case "", agent.NewPyBench().Name():
		r.format = agent.NewPyBench()
	case agent.NewToolsFormat().Name():
		r.format = agent.NewToolsFormat()
	default:
		return fmt.Errorf("teacher format %q is not known (want pybench or openai-tools)", tc.Format)
	}
	return r.setTeacherKind(tc)
}

func (r *evalRun) setTeacherKind(tc agent.Config) error {
	if rollout.IsAdversary(tc.Kind) {
		t, err := rollout.NewAdversaryTeacher(tc.Kind, r.format, r.inputs)
		r.teacher = t
		return err
	}
	switch tc.Kind {
	case TeacherReference:
		var missing []string
		for _, t := range r.tasks {
			if t.Reference == nil {
				missing = append(missing, t.Index)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("teacher reference: tasks %s of %s have no reference solution (a benchmark imported from PyBench has none: score trajectories with --teacher replay --trajectories FILE)",
				abbreviate(missing, 10), r.cfg.Bench)
		}
		r.teacher = agent.NewReference(r.format)
	case TeacherEmpty:
		r.teacher = agent.NewEmpty()
	case TeacherReplay:
		if tc.Replay == "" {
			return errors.New("teacher replay: no trajectory file (give --trajectories FILE: synth's " + rundir.Trajectories + " or PyBench's trajectory.jsonl)")
		}
		rep, err := agent.LoadReplay(tc.Replay)
		if err != nil {
			return err
		}
		r.replay, r.teacher = rep, rep
	case TeacherOpenAI, "":
		c, err := llm.New(r.cfg.LLM, append([]llm.Option{llm.WithCache(llm.CacheDir(r.opts.Out))}, r.opts.LLMOptions...)...)
		if err != nil {
			return err
		}
		r.endpoint.Client, r.teacher = c, agent.NewOpenAI(c, tc)
	default:
		return fmt.Errorf("teacher kind %q is not known (want openai, reference, empty, replay or adversary:NAME with NAME one of %s)", tc.Kind, strings.Join(adversary.Names(), ", "))
	}
	return nil
}

// openOut makes or reopens the results folder and refuses one made by
// another benchmark, teacher or setting.
func (r *evalRun) openOut(hash string) error {
	out := r.opts.Out
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("results folder: %w", err)
	}
	info := r.teacher.Info()
	tc := r.cfg.Teacher
	h := sha256.New()
	// Not the endpoint: replicas of one model give the same rollouts.
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%d\x00%d\x00%s\x00%s", hash, info.Kind, info.Model, r.format.Name(),
		r.turnCap(), tc.MaxObservation, strings.Join(tc.SystemPrompts, "\x00"), tc.Replay)
	if tc.Temperature != nil {
		fmt.Fprintf(h, "\x00t%v", *tc.Temperature)
	}
	if r.scoring != bench.ScoringStrict {
		fmt.Fprintf(h, "\x00s%s", r.scoring)
	}
	key := hex.EncodeToString(h.Sum(nil))[:16]
	path := filepath.Join(out, rundir.EvalInfo)
	var prev evalInfo
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &prev); err != nil {
			return fmt.Errorf("%s: %w (move it away to start over)", path, err)
		}
		if prev.Key != key {
			return fmt.Errorf("%w: %s holds an eval of another benchmark, teacher or setting (key %s, now %s): use another -o, or delete %s to start over",
				ErrConfigChanged, out, prev.Key, key, out)
		}
	}
	ei := evalInfo{Key: key, Bench: r.cfg.Bench, BenchHash: hash, Teacher: tc, Version: r.opts.Version, Started: prev.Started}
	if ei.Started.IsZero() {
		ei.Started = time.Now().UTC()
	}
	b, _ := json.MarshalIndent(ei, "", "  ")
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// samples is k, the rollouts per task.
func (r *evalRun) samples() int { return max(1, r.cfg.Teacher.Samples) }

// turnCap is the rollouts' turn cap, agent.Run's default when unset.
func (r *evalRun) turnCap() int {
	if r.cfg.Teacher.MaxTurns > 0 {
		return r.cfg.Teacher.MaxTurns
	}
	return 10
}

func (r *evalRun) concurrency() int {
	kind := r.cfg.Teacher.Kind
	if kind == "" {
		kind = TeacherOpenAI
	}
	return rollout.InFlight(r.cfg.Concurrency, kind, r.cfg.Sandbox.Slots)
}

// infraRetries is how often an infrastructure failure is retried, as
// filters counts it (default 2, negative: none).
func (r *evalRun) infraRetries() int {
	return filters.Config{InfraRetries: r.cfg.InfraRetries}.Retries()
}

func (r *evalRun) jobs() []rollout.Job {
	var jobs []rollout.Job
	for i := range r.tasks {
		t := &r.tasks[i]
		for s := range r.samples() {
			jobs = append(jobs, rollout.Job{ID: rollout.ID(t.ID, s, r.teacher, r.format, r.cfg.Teacher), Task: t, Sample: s, Teacher: r.teacher, Format: r.format})
		}
	}
	return jobs
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

func abbreviate(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// noSymlinks refuses a benchmark task whose input is, or lies behind, a
// symlink: a benchmark folder is untrusted, and a link could put a host
// file into the sandbox.
func noSymlinks(dir string, t *schemas.Task) error {
	for _, in := range t.Files {
		f, err := sources.OpenBeneath(filepath.Join(dir, bench.DataDir), in.Name)
		if errors.Is(err, sources.ErrSymlink) {
			return fmt.Errorf("bench %s: task %s: %s/%w", dir, t.Index, bench.DataDir, err)
		}
		if err == nil {
			f.Close()
		}
	}
	return nil
}
