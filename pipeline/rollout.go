package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"synth/rundir"
	"synth/runner"
	"synth/schemas"
)

// runJobs rolls out every job not yet in the journal, verifies each, and
// appends it to the journal. With proofs (benchmark validation), a job is
// done again when one of its records is missing or records an
// infrastructure failure (see redoProofs), and journals those records
// anew. It returns the index of every journaled record (earlier and new;
// the records stay on disk), and how many records it made now. A training
// rollout lost to the infrastructure (the teacher's endpoint failed past
// its retries) is not journaled but noted in lost.jsonl and counted in the
// summary: the next run does it again. Interrupted, it lets rollouts in
// flight finish, journals them, and returns ctx's error.
func (r *builder) runJobs(ctx context.Context, stage string, proofs bool, jobs jobList, journal string, fs *fileSet) (*trajIndex, int, error) {
	path := filepath.Join(r.work, journal)
	done, err := indexJournal(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	r.indexes = append(r.indexes, done)
	var redo map[string]bool
	if proofs {
		if redo, err = redoProofs(jobs, done); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", stage, err)
		}
	}
	// One pass over the jobs (a training job's id is hashed anew each time
	// it is made): the records they journal, those missing, and the jobs
	// to run, by index (4 bytes each, not a job).
	plan := runner.PlanOf(jobs, func(jb job) (int, int) { return len(jb.ids()), missing(jb, done, redo) })
	if len(plan.Pending) == 0 {
		return done, 0, nil
	}
	records := plan.Results
	if r.readOnly {
		return nil, 0, fmt.Errorf("%s: %d of %d rollouts are not done in %s: run synth plan -o %s again", stage, plan.Left, records, r.work, r.dir)
	}
	if err := r.llm.Preflight(ctx); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	lost, err := openLost(r.work)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	defer lost.close()
	if n := lost.count(jobs, plan.Pending); n > 0 {
		r.logf("%s: redoing %d rollouts lost to infrastructure failures in an earlier run", stage, n)
	}
	if _, err := r.sandbox(); err != nil {
		return nil, 0, err
	}
	j, err := rundir.OpenJournal(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", stage, err)
	}
	rl := r.roller(fs)
	rl.stage, rl.proofs, rl.done, rl.redo, rl.journal, rl.lost = stage, proofs, done, redo, j, lost
	rl.interrupted = func() bool { return ctx.Err() != nil }
	rn := runner.Runner[job, *schemas.Trajectory]{Stage: stage, Log: r.log, Workers: r.cfg.InFlight(), Grace: r.opts.grace(), Work: rl,
		Report: runner.Report{Live: r.opts.Terminal, Total: records, Resumed: records - plan.Left, Head: rl.head}}
	ran, err := rn.Run(ctx, jobs, plan.Pending)
	if cerr := j.Close(); cerr != nil && (err == nil || err == ctx.Err()) {
		err = cerr
	}
	r.sum.Lost += rl.lostNow
	var halt haltError
	switch {
	case errors.As(err, &halt):
		return nil, ran, fmt.Errorf("%s: %w after %d of %d rollouts (%d cut short and not recorded: the same command redoes them): %w",
			stage, errHalted, records-countMissing(jobs, done, redo), records, rl.lostNow, halt.err)
	case err != nil && err == ctx.Err():
		return nil, ran, runner.Interrupted(stage, records-countMissing(jobs, done, redo), records, err)
	case err != nil:
		return nil, ran, fmt.Errorf("%s: %w", stage, err)
	}
	return done, ran, nil
}

// count is how many of the jobs at indexes which an earlier run lost.
func (l *lostLog) count(jobs jobList, which []int32) int {
	n := 0
	for _, i := range which {
		if l.ids[jobs.At(int(i)).id] {
			n++
		}
	}
	return n
}
