package eval

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"synth/bench"
	"synth/rollout"
	"synth/rundir"
	"synth/runner"
	"synth/sandbox"
	"synth/schemas"
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
