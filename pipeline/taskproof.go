package pipeline

import (
	"context"
	"fmt"
	"os"

	"synth/checks"
	"synth/checks/adversary"
	"synth/filters"
	"synth/proof"
	"synth/runner"
	"synth/sandbox"
	"synth/schemas"
)

// taskProof is what a benchmark task's validation job proves besides its
// reference, whose record is the job's own: the mutant, when the task's
// template defines one, and every adversary that applies. The job journals
// one record for each.
type taskProof struct {
	mutant      *job // nil: the template defines no mutant
	adversaries []job
}

// ids are the ids of the records jb journals: its own, then its proof's.
func (jb job) ids() []string {
	ids := []string{jb.id}
	if p := jb.proof; p != nil {
		if p.mutant != nil {
			ids = append(ids, p.mutant.id)
		}
		for _, a := range p.adversaries {
			ids = append(ids, a.id)
		}
	}
	return ids
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

// redoProofs are the journaled records of validation jobs whose verdict is
// an infrastructure failure (a sandbox that would not start, a verifier
// that could not run): not the task's doing, so the next run does their job
// again rather than drop the task, or keep it unproven, for it.
func redoProofs(jobs jobList, done *trajIndex) (map[string]bool, error) {
	redo := map[string]bool{}
	for i := range jobs.Len() {
		for _, id := range jobs.At(i).ids() {
			t, err := done.Load(id)
			if err != nil {
				return nil, err
			}
			if t != nil && t.Verdict != nil && filters.IsInfra(t.Verdict.Failure) {
				redo[id] = true
			}
		}
	}
	return redo, nil
}
