package eval

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"synth/bench"
	"synth/rollout"
	"synth/rundir"
	"synth/sandbox"
)

// Evaluate rolls out every task of the benchmark (Teacher.Samples times),
// verifies each rollout with the task's checks, optionally asks an LLM
// judge, and writes results.jsonl, summary.json and report.md into
// opts.Out. Infrastructure failures are retried and, if they persist,
// recorded apart; a rerun retries them. Interrupted (ctx done), it lets the
// rollouts in flight finish, keeps them, and returns ctx's error; running it
// again continues. A results folder belongs to one benchmark, teacher and
// setting: another one is ErrConfigChanged.
func Evaluate(ctx context.Context, cfg Config, opts Options) (*Result, error) {
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
	r.bands(&sum, results)
	if sum.Variant, err = r.variants(ctx, results); err != nil {
		return nil, err
	}
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
