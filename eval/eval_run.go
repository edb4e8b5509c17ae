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
	"synth/runner"
	"synth/sandbox"
	"synth/schemas"
	"synth/sources"
)

// errStopEval marks a rollout error after which the eval takes no more
// work: a spent budget or an endpoint that refuses every request.
var errStopEval = errors.New("eval stopped")

// evalJob is a job and whether only its judgement is missing.
type evalJob struct {
	rollout.Job
	prev *bench.Result // a journaled result that only needs the judge
}

// runAll runs every job whose result is not journaled yet (or was an
// infrastructure failure, retried on every run), and judges journaled
// results that lack a judgement. It returns every job's result, in job
// order, and how many rollouts and judgements it made.
func (r *evalRun) runAll(ctx context.Context, jobs []rollout.Job) ([]bench.Result, int, int, error) {
	path := filepath.Join(r.opts.Out, rundir.EvalResults)
	done := map[string]bench.Result{}
	err := rundir.ReadJournal(path, func(res bench.Result) error { done[res.ID] = res; return nil })
	if err != nil {
		return nil, 0, 0, fmt.Errorf("eval: %w", err)
	}
	var ejobs []evalJob
	plan := runner.PlanOf(runner.Slice[rollout.Job](jobs), func(jb rollout.Job) (int, int) {
		res, ok := done[jb.ID]
		switch {
		case !ok || res.Infra:
			ejobs = append(ejobs, evalJob{Job: jb})
		case r.judge != nil && res.Judge == nil:
			ejobs = append(ejobs, evalJob{Job: jb, prev: &res})
		default:
			return 1, 0
		}
		return 1, 1
	})
	collect := func() []bench.Result {
		out := make([]bench.Result, 0, len(jobs))
		for _, jb := range jobs {
			if res, ok := done[jb.ID]; ok {
				out = append(out, res)
			}
		}
		return out
	}
	if len(plan.Pending) == 0 {
		return collect(), 0, 0, nil
	}
	if err := r.preflight(ctx); err != nil {
		return nil, 0, 0, err
	}
	j, err := rundir.OpenJournal(path)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("eval: %w", err)
	}
	w := &evalWork{r: r, done: done, journal: j}
	for _, jb := range jobs {
		if res, ok := done[jb.ID]; ok {
			w.count(res, 1)
			w.resumed++
		}
	}
	// After an interrupt or a stop no rollout starts; those in flight get a
	// grace period, then are abandoned, unrecorded, for the next run.
	rn := runner.Runner[evalJob, bench.Result]{Stage: "eval", Log: r.log, Workers: r.concurrency(), Grace: rollout.DefaultGrace, Work: w,
		Report: runner.Report{Live: r.opts.Terminal, Total: len(jobs), Resumed: w.resumed, Head: w.head, Note: w.rate}}
	ran, err := rn.Run(ctx, runner.Slice[evalJob](ejobs), allOf(len(ejobs)))
	if cerr := j.Close(); cerr != nil && (err == nil || err == ctx.Err()) {
		err = cerr
	}
	missing := 0
	for _, jb := range jobs {
		if _, ok := done[jb.ID]; !ok {
			missing++
		}
	}
	switch {
	case err != nil && errors.Is(err, errStopEval):
		return nil, ran, w.judged, fmt.Errorf("eval: stopped after %d of %d rollouts (all finished ones are kept; fix the cause and run the same command again to continue): %w",
			len(jobs)-missing, len(jobs), err)
	case err != nil && err == ctx.Err():
		return nil, ran, w.judged, runner.Interrupted("eval", len(jobs)-missing, len(jobs), err)
	case err != nil:
		return nil, ran, w.judged, fmt.Errorf("eval: %w", err)
	}
	return collect(), ran, w.judged, nil
}

// allOf is the indexes 0..n-1.
func allOf(n int) []int32 {
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	return all
}

// evalWork plays an eval's jobs and journals their results: the
// runner.Work of synth eval.
type evalWork struct {
	r       *evalRun
	journal *rundir.Journal
	// Record's: every job's result so far, and the counts of the status line.
	done                           map[string]bench.Result
	resumed, scored, passed, infra int
	judged                         int
}

// Do plays one job, unless only its judgement is missing, and has the
// judge score it.
func (w *evalWork) Do(ctx context.Context, jb evalJob) ([]bench.Result, error) {
	var res bench.Result
	if jb.prev != nil {
		res = *jb.prev
	} else {
		var err error
		if res, err = w.r.rollout(ctx, jb.Job); err != nil {
			return nil, err
		}
	}
	if w.r.judge != nil && !res.Infra && res.Failure != bench.FailNotRecorded {
		res.Judge = w.r.judge.judge(ctx, jb.Task, res.Traj)
	}
	return []bench.Result{res}, nil
}

// Record journals res, which replaces the job's earlier result, if any.
func (w *evalWork) Record(res bench.Result) (runner.Step, error) {
	err := w.journal.Append(res)
	prev, had := w.done[res.ID]
	w.done[res.ID] = res
	var st runner.Step
	if had {
		w.count(prev, -1)
	} else {
		st.Done = 1
	}
	w.count(res, 1)
	if !had || prev.Infra {
		st.Ran = true
		if res.Traj != nil {
			st.Tokens, st.Cost = res.Traj.Usage.PromptTokens+res.Traj.Usage.CompletionTokens, res.Traj.Usage.CostUSD
		}
	}
	if res.Judge != nil && (prev.Judge == nil || !had) {
		w.judged++
	}
	return st, err
}

func (w *evalWork) count(res bench.Result, sign int) {
	switch {
	case res.Infra:
		w.infra += sign
	case res.Passed:
		w.passed += sign
		w.scored += sign
	default:
		w.scored += sign
	}
}

// rate is the pass rate so far.
func (w *evalWork) rate() string {
	if w.scored == 0 {
		return "pass rate -"
	}
	return fmt.Sprintf("pass rate %.1f%% (%d/%d)", 100*float64(w.passed)/float64(w.scored), w.passed, w.scored)
}

// head opens the status line: the rollouts done, the pass rate and the
// infrastructure errors.
func (w *evalWork) head(done, total int) string {
	s := fmt.Sprintf("eval: %d/%d rollouts, %s", done, total, w.rate())
	if w.infra > 0 {
		s += fmt.Sprintf(", %d infra errors (not scored)", w.infra)
	}
	return s
}

// rollout runs one job, retrying infrastructure failures. The error is for
// failures that stop the eval: a spent budget, an endpoint that refuses
// every request, the artifact store.
func (r *evalRun) rollout(ctx context.Context, jb rollout.Job) (bench.Result, error) {
	return runner.Retry(ctx, runner.Tries(r.infraRetries()), func(attempt int) (bench.Result, bool, error) {
		t, err := r.rolloutOnce(ctx, jb)
		if err != nil {
			return bench.Result{}, false, err
		}
		res := bench.ResultOf(jb.Task, t, attempt)
		return res, res.Infra, nil
	})
}

func (r *evalRun) rolloutOnce(ctx context.Context, jb rollout.Job) (*schemas.Trajectory, error) {
	if r.replay != nil && r.replay.Recordings(jb.Task) <= jb.Sample {
		return rollout.Unplayed(jb, bench.FailNotRecorded, bench.FailNotRecorded,
			fmt.Errorf("%s has no recording of task %s (index %s) sample %d", r.cfg.Teacher.Replay, jb.Task.ID, jb.Task.Index, jb.Sample)), nil
	}
	inputs := r.inputs(jb.Task)
	p := rollout.Player{Backend: r.backend, Artifacts: filepath.Join(r.opts.Out, rundir.ArtifactsDir), Teacher: r.cfg.Teacher, MaxTurns: r.turnCap(),
		PyBench: r.scoring == bench.ScoringPyBench, Limits: rollout.CollectLimits(r.cfg.Sandbox)}
	t, err := p.Play(ctx, jb, inputs)
	if err != nil {
		return nil, err
	}
	// A spent budget or an endpoint that refuses every request stops the
	// eval; the rollout it cut short is not recorded.
	if cerr := r.endpoint.Stopping(); cerr != nil && (t.StopReason == schemas.StopBudget || t.StopReason == schemas.StopTeacherError) {
		return nil, fmt.Errorf("%w: teacher: %v", errStopEval, cerr)
	}
	return t, nil
}

// preflight checks the teacher's and the judge's endpoints before the
// first rollout, so that a dead or misconfigured one stops the eval at once.
func (r *evalRun) preflight(ctx context.Context) error {
	eps := []*rollout.Endpoint{&r.endpoint}
	if r.judge != nil {
		eps = append(eps, &r.judge.endpoint)
	}
	for _, e := range eps {
		if err := e.Preflight(ctx); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
	}
	return nil
}

// inputs are a task's files in the benchmark's data/.
func (r *evalRun) inputs(t *schemas.Task) []sandbox.Input {
	in := make([]sandbox.Input, len(t.Files))
	for i, f := range t.Files {
		in[i] = sandbox.Input{Name: f.Name, Root: filepath.Join(r.benchDir, bench.DataDir), Path: f.Name}
	}
	return in
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
	judge    *judger
	benchDir string
	scoring  string // bench.ScoringStrict or bench.ScoringPyBench
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
	case TeacherReference, TeacherWeak:
		var missing []string
		for _, t := range r.tasks {
			if t.Reference == nil {
				missing = append(missing, t.Index)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("teacher %s: tasks %s of %s have no reference solution (a benchmark imported from PyBench has none: score trajectories with --teacher replay --trajectories FILE)",
				tc.Kind, abbreviate(missing, 10), r.cfg.Bench)
		}
		r.teacher = agent.NewReference(r.format)
		if tc.Kind == TeacherWeak {
			r.teacher = agent.NewWeak(r.format)
		}
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
		return fmt.Errorf("teacher kind %q is not known (want openai, reference, empty, weak, replay or adversary:NAME with NAME one of %s)", tc.Kind, strings.Join(adversary.Names(), ", "))
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
