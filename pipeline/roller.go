package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"synth/checks"
	"synth/checks/adversary"
	"synth/filters"
	"synth/internal/pacer"
	"synth/proof"
	"synth/rollout"
	"synth/rundir"
	"synth/runinfo"
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
	halted  func() error                           // why the build must stop taking work (the endpoint's Halted)
	whole   func(*slimTask) (*schemas.Task, error) // a slim task made whole (taskStore.whole)

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
func (r *builder) roller(fs *fileSet) *roller {
	p := rollout.Player{Backend: r.backend, Artifacts: filepath.Join(r.work, rundir.ArtifactsDir), Teacher: r.cfg.Teacher,
		MaxTurns: r.cfg.Teacher.MaxTurns, Limits: rollout.CollectLimits(r.cfg.Sandbox)}
	return &roller{player: p, backend: r.backend, fs: fs, retry: runner.Tries(r.cfg.Filters.Retries()), halted: r.llm.Halted, whole: r.tasks.whole,
		failures: map[string]int{}}
}

// haltError is a job's report that the build must stop (the endpoint's Halted).
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
		s += ", failed: " + runinfo.CountsNote(w.failures)
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
	var earlier schemas.Usage // what the failed tries cost
	return runner.Retry(ctx, w.retry, func(attempt int) (*schemas.Trajectory, bool, error) {
		t, err := w.player.Play(ctx, jb.played(), inputs)
		if err == nil && attempt > 1 {
			e := earlier
			t.Attempt, t.EarlierUsage = attempt, &e
		}
		if err == nil {
			earlier.Add(t.Usage)
		}
		// An endpoint's failure was retried request by request already;
		// playing the rollout again at once would re-send what the server
		// may still be computing. The next run redoes it.
		again := err == nil && w.halted() == nil && !lostToInfra(t) && filters.Retryable(t.Verdict.Failure)
		return t, again, err
	})
}

// proveTask runs a benchmark task's validation job and returns its records
// in ids' order: the reference and the mutant, each played in a sandbox of
// its own and collected, but not verified there; then the two rollouts'
// outputs and every adversary's files are verified together, in one
// verification sandbox. A rollout that did not finish gets its failure
// without checks, as filters.Verify gives it. A sandbox that would not
// start, a collection that failed or a verifier that could not run is
// retried as filters.infra_retries says, then recorded with its failure
// (sandbox_crash, artifact_error, ...); a sandbox_crash the next run does
// again (redoProofs). The error is errAbandoned when ctx ended the job.
func (w *roller) proveTask(ctx context.Context, jb job) ([]*schemas.Trajectory, error) {
	inputs := w.fs.inputs(jb.task)
	p := w.player
	played := []job{jb}
	if m := jb.proof.mutant; m != nil {
		mj := *m
		mj.task = jb.task // the whole task runJobs loaded for jb
		played = append(played, mj)
	}
	var recs []*schemas.Trajectory
	var judged []*schemas.Trajectory // the records set holds a case of
	var set proof.Set
	for k, pj := range played {
		t, err := w.perform(ctx, pj, inputs)
		if err != nil {
			return nil, err
		}
		recs = append(recs, t)
		if t.Verdict != nil {
			continue // it did not finish, or its sandbox or collection failed
		}
		c, err := filters.CaseOf(jb.task, t, inputs, p.Artifacts)
		if err != nil {
			filters.Unverified(t, fmt.Errorf("verify %s: %w", t.ID, err))
			continue
		}
		if k == 0 {
			set.Reference = &c
		} else {
			set.Wrong = []*checks.Case{&c}
		}
		judged = append(judged, t)
	}

	dir, err := os.MkdirTemp("", "synth-adversary-")
	var cs proof.Cases
	if err == nil {
		defer os.RemoveAll(dir)
		cs, err = proof.Assemble(jb.task, inputs, dir, set)
	}
	advErr := err
	var o proof.Outcome
	if advErr == nil && len(cs.List) == 0 {
		o = cs.Outcome(nil)
	} else if advErr == nil {
		rs, err := w.verifyBatch(ctx, cs.List)
		if ctx.Err() != nil {
			return nil, errAbandoned
		}
		if err != nil {
			err = fmt.Errorf("verify task %s: %w", jb.task.ID, err)
			for _, t := range judged {
				filters.Unverified(t, err)
			}
			advErr = err
		} else {
			o = cs.Outcome(rs)
		}
	}
	if advErr == nil {
		for _, t := range judged {
			rs := o.Reference
			if t != recs[0] {
				rs = o.Wrong[0] // the mutant's
			}
			v := filters.VerdictOf(rs)
			t.Verdict = &v
		}
	}
	res := o.Adversaries
	for _, a := range jb.proof.adversaries {
		t, err := adversaryRecord(a, res, advErr)
		if err != nil {
			return nil, err
		}
		recs = append(recs, t)
	}
	return recs, nil
}

// adversaryRecord is the record of adversary job a from the task's results
// res, or, when err says the adversaries could not be verified, a
// sandbox_crash. An adversary the job was made for that has no verdict in
// res did not run: that is an error, never a record that it failed; so is
// a verdict from its checks that is not adversary.Score's.
func adversaryRecord(a job, res []adversary.Result, err error) (*schemas.Trajectory, error) {
	t := &schemas.Trajectory{ID: a.id, TaskID: a.task.ID, Teacher: a.teacher.Info(), StopReason: schemas.StopFinished,
		Messages: []schemas.Message{}, Steps: []schemas.Step{}}
	if err != nil {
		t.StopReason, t.Error = schemas.StopSandboxError, err.Error()
		t.Verdict = &schemas.Verdict{Failure: schemas.FailSandboxCrash, Checks: []schemas.CheckResult{}}
		return t, nil
	}
	name := a.teacher.(adversaryProof).name
	for _, x := range res {
		if x.Adversary == name && x.Applied && len(x.Checks) > 0 {
			v := filters.VerdictOf(x.Checks)
			if v.Passed != x.Passed {
				return nil, fmt.Errorf("task %s: adversary %s: scored passed=%v, but its checks say passed=%v", a.task.ID, name, x.Passed, v.Passed)
			}
			t.Verdict = &v
		}
	}
	if t.Verdict == nil {
		return nil, fmt.Errorf("task %s: adversary %s applied when its job was made but has no verdict", a.task.ID, name)
	}
	return t, nil
}

// perform plays jb without verifying it (rollout.Player.Perform) and gives a
// rollout that did not finish its failure, as filters.Verify would; it
// plays again while that failure, or the sandbox's, is an infrastructure
// failure filters.infra_retries retries. Verdict is nil on a rollout to
// verify.
func (w *roller) perform(ctx context.Context, jb job, inputs []sandbox.Input) (*schemas.Trajectory, error) {
	return runner.Retry(ctx, w.retry, func(int) (*schemas.Trajectory, bool, error) {
		t, err := w.player.Perform(ctx, jb.played(), inputs)
		if err == nil && t.Verdict == nil {
			if v, ok := filters.Unfinished(t); ok {
				t.Verdict = &v
			}
		}
		again := err == nil && t.Verdict != nil && w.halted() == nil && filters.Retryable(t.Verdict.Failure)
		return t, again, err
	})
}

// verifyBatch runs proof.Verify on cases in one verification sandbox, again
// while it fails to run (a sandbox_crash, which filters.infra_retries
// retries).
func (w *roller) verifyBatch(ctx context.Context, cases []checks.Case) ([][]schemas.CheckResult, error) {
	type verified struct {
		rs  [][]schemas.CheckResult
		err error
	}
	v, _ := runner.Retry(ctx, w.retry, func(int) (verified, bool, error) {
		rs, err := proof.Verify(ctx, w.backend, cases, 0)
		again := err != nil && ctx.Err() == nil && w.halted() == nil
		return verified{rs, err}, again, nil
	})
	return v.rs, v.err
}
