package filters

import (
	"context"
	"fmt"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// Verify runs a task's checks against a finished rollout: it opens a fresh
// sandbox on the rollout's workspace (the files the rollout left under
// output/, its inputs under data/), runs the checks with the trajectory's
// final answer and messages, and closes the sandbox.
//
// A rollout that did not finish fails without running its checks, with the
// failure its stop reason and last step explain. A finished rollout passes
// when every check does, else fails with check_failed. The error is only for
// a verifier that could not run (the sandbox would not open, or the checks
// cell did not report).
func Verify(ctx context.Context, b sandbox.Backend, task *schemas.Task, traj *schemas.Trajectory, workspace string) (schemas.Verdict, error) {
	if f := unfinished(traj); f != "" {
		return schemas.Verdict{Passed: false, Checks: []schemas.CheckResult{}, Failure: f}, nil
	}
	return VerifyWorkspace(ctx, b, task, traj, workspace)
}

// VerifyAsPyBench is Verify the way PyBench's harness scores: the checks
// run on whatever the rollout left, whether it finished, ran out of turns
// or stopped writing code. Only a rollout that the infrastructure cut short
// (the teacher's endpoint, the budget, the sandbox) fails without them, so
// that it is retried and reported apart.
func VerifyAsPyBench(ctx context.Context, b sandbox.Backend, task *schemas.Task, traj *schemas.Trajectory, workspace string) (schemas.Verdict, error) {
	switch traj.StopReason {
	case schemas.StopTeacherError, schemas.StopBudget, schemas.StopSandboxError:
		return schemas.Verdict{Passed: false, Checks: []schemas.CheckResult{}, Failure: unfinished(traj)}, nil
	}
	return VerifyWorkspace(ctx, b, task, traj, workspace)
}

// VerifyWorkspace runs the task's checks on the workspace whatever the
// rollout's stop reason: it passes when every check does, else fails with
// check_failed.
func VerifyWorkspace(ctx context.Context, b sandbox.Backend, task *schemas.Task, traj *schemas.Trajectory, workspace string) (schemas.Verdict, error) {
	sb, err := b.Open(ctx, sandbox.Spec{Workspace: workspace})
	if err != nil {
		return schemas.Verdict{}, fmt.Errorf("verify %s: open sandbox: %w", traj.ID, err)
	}
	defer sb.Close()
	rs, err := checks.Verify(ctx, sb, task.Checks, traj.FinalAnswer, traj.Messages)
	if err != nil {
		return schemas.Verdict{}, fmt.Errorf("verify %s: task %s: %w", traj.ID, task.ID, err)
	}
	if err := sb.Close(); err != nil {
		return schemas.Verdict{}, fmt.Errorf("verify %s: close sandbox: %w", traj.ID, err)
	}
	v := schemas.Verdict{Passed: true, Checks: rs}
	for _, r := range rs {
		if !r.OK {
			v.Passed, v.Failure = false, schemas.FailCheck
		}
	}
	return v, nil
}

// unfinished returns the failure of a rollout that did not finish, or ""
// for one that did.
func unfinished(traj *schemas.Trajectory) string {
	last := ""
	if n := len(traj.Steps); n > 0 {
		last = traj.Steps[n-1].Status
	}
	switch traj.StopReason {
	case schemas.StopFinished:
		return ""
	case schemas.StopMaxTurns:
		return schemas.FailMaxTurns
	case schemas.StopNoCode:
		return schemas.FailFormat
	case schemas.StopTeacherError:
		return schemas.FailTeacherError
	case schemas.StopBudget:
		return schemas.FailBudget
	case schemas.StopReplyTooLong:
		return schemas.FailReplyTooLong
	case schemas.StopTruncated:
		return schemas.FailTruncated
	case schemas.StopContextLength, schemas.StopRecordingEnded:
		return schemas.FailNoFinalAnswer // the model's doing, not the infrastructure's
	case schemas.StopSandboxError:
		if last == schemas.StatusTimeout {
			return schemas.FailExecTimeout
		}
		return schemas.FailSandboxCrash
	}
	switch last {
	case schemas.StatusTimeout:
		return schemas.FailExecTimeout
	case schemas.StatusCrash:
		return schemas.FailSandboxCrash
	}
	return schemas.FailNoFinalAnswer
}
