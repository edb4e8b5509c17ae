package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"golang.org/x/sync/errgroup"

	"synth/bench"
	"synth/llm"
	"synth/rundir"
	"synth/sandbox"
	"synth/schemas"
)

// errStopEval marks a rollout error after which the eval takes no more
// work: a spent budget or an endpoint that refuses every request.
var errStopEval = errors.New("eval stopped")

// evalJob is a job and whether only its judgement is missing.
type evalJob struct {
	job
	prev *bench.Result // a journaled result that only needs the judge
}

// runAll runs every job whose result is not journaled yet (or was an
// infrastructure failure, retried on every run), and judges journaled
// results that lack a judgement. It returns every job's result, in job
// order, and how many rollouts and judgements it made.
func (r *evalRun) runAll(ctx context.Context, jobs []job) ([]bench.Result, int, int, error) {
	path := filepath.Join(r.opts.Out, rundir.EvalResults)
	done := map[string]bench.Result{}
	err := rundir.ReadJournal(path, func(res bench.Result) error { done[res.ID] = res; return nil })
	if err != nil {
		return nil, 0, 0, fmt.Errorf("eval: %w", err)
	}
	var pending []evalJob
	for _, jb := range jobs {
		res, ok := done[jb.id]
		switch {
		case !ok || res.Infra:
			pending = append(pending, evalJob{job: jb})
		case r.judge != nil && res.Judge == nil:
			pending = append(pending, evalJob{job: jb, prev: &res})
		}
	}
	collect := func() []bench.Result {
		out := make([]bench.Result, 0, len(jobs))
		for _, jb := range jobs {
			if res, ok := done[jb.id]; ok {
				out = append(out, res)
			}
		}
		return out
	}
	if len(pending) == 0 {
		return collect(), 0, 0, nil
	}
	if err := r.preflight(ctx); err != nil {
		return nil, 0, 0, err
	}
	j, err := rundir.OpenJournal(path)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("eval: %w", err)
	}
	prog := newEvalProgress(r.log, r.opts.Terminal, len(jobs), done, jobs)
	results := make(chan bench.Result)
	writeErr := make(chan error, 1)
	ran, judged := 0, 0
	go func() { // the journal's only writer
		var err error
		for res := range results {
			if err == nil {
				err = j.Append(res)
			}
			prev, had := done[res.ID]
			done[res.ID] = res
			prog.finished(prev, had, res)
		}
		if cerr := j.Close(); err == nil {
			err = cerr
		}
		writeErr <- err
	}()

	// After an interrupt or a stop no rollout starts; those in flight get a
	// grace period, then are abandoned, unrecorded, for the next run.
	work, cancelWork := graceful(ctx, r.log, "eval", defaultGrace)
	defer cancelWork()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.concurrency())
	for _, jb := range pending {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if gctx.Err() != nil {
				return nil
			}
			var res bench.Result
			if jb.prev != nil {
				res = *jb.prev
			} else {
				var err error
				res, err = r.rollout(work, jb.job)
				if errors.Is(err, errAbandoned) {
					return nil
				}
				if err != nil {
					return err
				}
			}
			if r.judge != nil && !res.Infra && res.Failure != bench.FailNotRecorded {
				res.Judge = r.judge.judge(work, jb.task, res.Traj)
			}
			results <- res
			return nil
		})
	}
	gerr := g.Wait()
	close(results)
	werr := <-writeErr
	prog.close()
	ran, judged = prog.counts()
	missing := 0
	for _, jb := range jobs {
		if _, ok := done[jb.id]; !ok {
			missing++
		}
	}
	switch {
	case gerr != nil && errors.Is(gerr, errStopEval):
		return nil, ran, judged, fmt.Errorf("eval: stopped after %d of %d rollouts (all finished ones are kept; fix the cause and run the same command again to continue): %w",
			len(jobs)-missing, len(jobs), gerr)
	case gerr != nil:
		return nil, ran, judged, fmt.Errorf("eval: %w", gerr)
	case werr != nil:
		return nil, ran, judged, fmt.Errorf("eval: %w", werr)
	case ctx.Err() != nil:
		return nil, ran, judged, fmt.Errorf("eval: interrupted after %d of %d rollouts (all finished ones are kept; run the same command again to continue): %w",
			len(jobs)-missing, len(jobs), ctx.Err())
	}
	return collect(), ran, judged, nil
}

// rollout runs one job, retrying infrastructure failures. The error is for
// failures that stop the eval: a spent budget, an endpoint that refuses
// every request, the artifact store.
func (r *evalRun) rollout(ctx context.Context, jb job) (bench.Result, error) {
	var res bench.Result
	for attempt := 1; attempt <= r.infraRetries()+1; attempt++ {
		t, err := r.rolloutOnce(ctx, jb)
		if err != nil {
			return res, err
		}
		res = bench.ResultOf(jb.task, t, attempt)
		if !res.Infra {
			break
		}
	}
	return res, nil
}

func (r *evalRun) rolloutOnce(ctx context.Context, jb job) (*schemas.Trajectory, error) {
	if r.replay != nil && r.replay.Recordings(jb.task) <= jb.sample {
		return unplayed(jb, bench.FailNotRecorded, bench.FailNotRecorded,
			fmt.Errorf("%s has no recording of task %s (index %s) sample %d", r.cfg.Teacher.Replay, jb.task.ID, jb.task.Index, jb.sample)), nil
	}
	inputs := r.inputs(jb.task)
	p := player{backend: r.backend, artifacts: filepath.Join(r.opts.Out, rundir.ArtifactsDir), teacher: r.cfg.Teacher, maxTurns: r.turnCap(),
		pybench: r.scoring == bench.ScoringPyBench, limits: collectLimits(r.cfg.Sandbox)}
	t, err := p.play(ctx, jb, inputs)
	if err != nil {
		return nil, err
	}
	// A spent budget or an endpoint that refuses every request stops the
	// eval; the rollout it cut short is not recorded.
	if r.client != nil {
		if cerr := r.client.Err(); cerr != nil && (llm.IsBudget(cerr) || llm.IsFatal(cerr)) &&
			(t.StopReason == schemas.StopBudget || t.StopReason == schemas.StopTeacherError) {
			return nil, fmt.Errorf("%w: teacher: %v", errStopEval, cerr)
		}
	}
	return t, nil
}

// preflight checks the teacher's and the judge's endpoints before the
// first rollout, so that a dead or misconfigured one stops the eval at once.
func (r *evalRun) preflight(ctx context.Context) error {
	for _, c := range []*llm.Client{r.client, r.judgeClient()} {
		if c == nil {
			continue
		}
		if err := c.Preflight(ctx); err != nil {
			return fmt.Errorf("eval: llm endpoint check (nothing was sent to the model yet): %w", err)
		}
	}
	return nil
}

func (r *evalRun) judgeClient() *llm.Client {
	if r.judge == nil {
		return nil
	}
	return r.judge.c
}

// inputs are a task's files in the benchmark's data/.
func (r *evalRun) inputs(t *schemas.Task) []sandbox.Input {
	in := make([]sandbox.Input, len(t.Files))
	for i, f := range t.Files {
		in[i] = sandbox.Input{Name: f.Name, Root: filepath.Join(r.benchDir, bench.DataDir), Path: f.Name}
	}
	return in
}
