package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"synth/filters"
	"synth/internal/pacer"
	"synth/rollout"
	"synth/rundir"
	"synth/runner"
	"synth/sandbox"
	"synth/schemas"
)

// roller plays a build's jobs and journals their records: the runner.Work
// of its rollout and validate stages. Its Do runs on many goroutines and
// reads only what it was made with; Record, on the runner's one recorder
// goroutine, owns the journal, the index and the counts.
type roller struct {
	player  rollout.Player
	backend sandbox.Backend // the player's, where proofs are verified
	fs      *fileSet
	retry   pacer.Policy                           // filters.infra_retries
	halted  func() error                           // why the run must stop taking work (run.halted)
	whole   func(*slimTask) (*schemas.Task, error) // a slim task made whole (run.whole)

	stage       string
	proofs      bool // validation jobs: a job journals its proof's records too
	interrupted func() bool

	// Record's.
	done     *trajIndex
	redo     map[string]bool
	journal  *rundir.Journal
	lost     *lostLog
	lostNow  int
	passed   int
	failures map[string]int
}

// roller is the run's roller over fs, not yet given its journal.
func (r *run) roller(fs *fileSet) *roller {
	p := rollout.Player{Backend: r.backend, Artifacts: filepath.Join(r.work, rundir.ArtifactsDir), Teacher: r.cfg.Teacher,
		MaxTurns: r.cfg.Teacher.MaxTurns, Limits: rollout.CollectLimits(r.cfg.Sandbox)}
	return &roller{player: p, backend: r.backend, fs: fs, retry: runner.Tries(r.cfg.Filters.Retries()), halted: r.llm.Halted, whole: r.tasks.whole,
		failures: map[string]int{}}
}

// haltError is a job's report that the run must stop (run.halted).
type haltError struct{ err error }

func (e haltError) Error() string { return e.err.Error() }

// Do plays one job and returns the records to journal. A record that
// failed after the interrupt is left out (its sandbox may have had the
// signal too: Slurm's scancel and Kubernetes signal every process of the
// job), and so is one the budget stopped when the run halts: the next run
// does them again.
func (w *roller) Do(ctx context.Context, jb job) ([]*schemas.Trajectory, error) {
	if jb.task == nil {
		var err error
		if jb.task, err = w.whole(jb.slim); err != nil {
			return nil, err
		}
	}
	ts, err := w.records(ctx, jb)
	if err != nil {
		return nil, err
	}
	herr := w.halted()
	var keep []*schemas.Trajectory
	for _, t := range ts {
		if w.interrupted() && (t.Verdict == nil || !t.Verdict.Passed) {
			continue
		}
		if herr != nil && t.StopReason == schemas.StopBudget {
			continue // not the task's fault
		}
		keep = append(keep, t)
	}
	if herr != nil {
		return keep, haltError{herr}
	}
	return keep, nil
}

// Record journals t, unless an earlier run journaled it (a validation
// job's record that is not to be done again); a training rollout lost to
// the infrastructure goes to lost.jsonl instead, so the next run does it
// again.
func (w *roller) Record(t *schemas.Trajectory) (runner.Step, error) {
	if w.done.Has(t.ID) && !w.redo[t.ID] {
		return runner.Step{Skipped: true}, nil
	}
	if t.Verdict != nil && t.Verdict.Passed {
		w.passed++
	} else if t.Verdict != nil {
		w.failures[t.Verdict.Failure]++
	}
	st := runner.Step{Done: 1, Ran: true, Tokens: t.Usage.PromptTokens + t.Usage.CompletionTokens, Cost: t.Usage.CostUSD}
	if !w.proofs && lostToInfra(t) {
		w.lostNow++
		return st, w.lost.add(t)
	}
	off := w.journal.Offset()
	if err := w.journal.Append(t); err != nil {
		return st, err
	}
	w.done.Add(t.ID, off) // a record done again supersedes the earlier one
	delete(w.redo, t.ID)
	return st, nil
}

// head opens the status line: the records done, and how many passed and
// why the others failed (a validation stage's mostly fail by design).
func (w *roller) head(done, total int) string {
	if w.proofs {
		return fmt.Sprintf("%s: %d/%d rollouts done (reference, empty, mutated and adversary proofs of each benchmark task)", w.stage, done, total)
	}
	s := fmt.Sprintf("%s: %d/%d done, %d passed", w.stage, done, total, w.passed)
	if len(w.failures) > 0 {
		s += ", failed: " + countsNote(w.failures)
	}
	return s
}

// records plays one job and returns what it journals: its rollout, or a
// validation job's records (proveTask).
func (w *roller) records(ctx context.Context, jb job) ([]*schemas.Trajectory, error) {
	if jb.proof != nil {
		return w.proveTask(ctx, jb)
	}
	t, err := w.rollout(ctx, jb)
	if err != nil {
		return nil, err
	}
	return []*schemas.Trajectory{t}, nil
}

// rollout plays one job. Infrastructure failures (a sandbox that would not
// start, a teacher that errs) are retried filters.infra_retries times and
// then recorded with their failure word; they are never task failures, and
// the filters drop them.
func (w *roller) rollout(ctx context.Context, jb job) (*schemas.Trajectory, error) {
	inputs := w.fs.inputs(jb.task)
	return runner.Retry(ctx, w.retry, func(int) (*schemas.Trajectory, bool, error) {
		t, err := w.player.Play(ctx, jb.played(), inputs)
		// An endpoint's failure was retried request by request already;
		// playing the rollout again at once would re-send what the server
		// may still be computing. The next run redoes it.
		again := err == nil && w.halted() == nil && !lostToInfra(t) && filters.Retryable(t.Verdict.Failure)
		return t, again, err
	})
}
