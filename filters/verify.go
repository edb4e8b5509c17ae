package filters

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// Verify runs a task's checks against a finished rollout, in a fresh
// sandbox that never sees the rollout's workspace: its inputs (data/<name>,
// from inputs) and the files it wrote (output/..., rebuilt from
// traj.Artifacts in the content-addressed store), read-only, with the
// trajectory's final answer and messages. See checks.Verify for why the
// rollout cannot forge the verdict.
//
// A rollout that did not finish fails without running its checks, with the
// failure its stop reason and last step explain. A finished rollout passes
// when every check does, else fails with check_failed. The error is a
// *checks.CaseError when what the rollout left stopped the verification (an
// artifact name the checks cannot take, files that made the checks cell
// time out or die): the rollout's failure, which RolloutFailure turns into
// its verdict. Any other error is for a verifier that could not run (the
// sandbox would not open, an artifact is missing from the store, or the
// checks cell did not report).
func Verify(ctx context.Context, b sandbox.Backend, task *schemas.Task, traj *schemas.Trajectory, inputs []sandbox.Input, store string) (schemas.Verdict, error) {
	if v, ok := Unfinished(traj); ok {
		return v, nil
	}
	return VerifyWorkspace(ctx, b, task, traj, inputs, store)
}

// Unfinished is the verdict Verify gives a rollout that did not finish,
// without running its checks; ok is false for a rollout that finished,
// whose verdict is its checks'.
func Unfinished(traj *schemas.Trajectory) (v schemas.Verdict, ok bool) {
	f := unfinished(traj)
	if f == "" {
		return schemas.Verdict{}, false
	}
	return schemas.Verdict{Passed: false, Checks: []schemas.CheckResult{}, Failure: f}, true
}

// VerifyAsPyBench is Verify the way PyBench's harness scores: the checks
// run on whatever the rollout left, whether it finished, ran out of turns
// or stopped writing code. Only a rollout that the infrastructure cut short
// (the teacher's endpoint, the budget, the sandbox) fails without them, so
// that it is retried and reported apart. As PyBench's tests.py, it judges
// the answer alone: a stated number need not be among the printed ones.
func VerifyAsPyBench(ctx context.Context, b sandbox.Backend, task *schemas.Task, traj *schemas.Trajectory, inputs []sandbox.Input, store string) (schemas.Verdict, error) {
	switch traj.StopReason {
	case schemas.StopTeacherError, schemas.StopBudget, schemas.StopSandboxError:
		return schemas.Verdict{Passed: false, Checks: []schemas.CheckResult{}, Failure: unfinished(traj)}, nil
	}
	c, err := CaseOf(task, traj, inputs, store)
	if err != nil {
		return schemas.Verdict{}, fmt.Errorf("verify %s: %w", traj.ID, err)
	}
	c.Observations = nil // PyBench's tests judge the answer alone
	return verifyCase(ctx, b, task, traj, c)
}

// VerifyWorkspace runs the task's checks on the rollout's inputs and
// collected artifacts whatever its stop reason, holding the answer to what
// the rollout's code printed (Observations): it passes when every check
// does, else fails with check_failed.
func VerifyWorkspace(ctx context.Context, b sandbox.Backend, task *schemas.Task, traj *schemas.Trajectory, inputs []sandbox.Input, store string) (schemas.Verdict, error) {
	c, err := CaseOf(task, traj, inputs, store)
	if err != nil {
		return schemas.Verdict{}, fmt.Errorf("verify %s: %w", traj.ID, err)
	}
	return verifyCase(ctx, b, task, traj, c)
}

func verifyCase(ctx context.Context, b sandbox.Backend, task *schemas.Task, traj *schemas.Trajectory, c checks.Case) (schemas.Verdict, error) {
	rs, err := checks.Verify(ctx, b, []checks.Case{c})
	if err != nil {
		return schemas.Verdict{}, fmt.Errorf("verify %s: task %s: %w", traj.ID, task.ID, err)
	}
	return VerdictOf(rs[0]), nil
}

// RolloutFailure is the verdict of a rollout whose verification err stopped
// because of what the rollout left (a *checks.CaseError): failed, with the
// error's reason (artifact_error, check_crash). ok is false for any other
// error, an infrastructure failure.
func RolloutFailure(err error) (v schemas.Verdict, ok bool) {
	var ce *checks.CaseError
	if !errors.As(err, &ce) {
		return schemas.Verdict{}, false
	}
	return schemas.Verdict{Passed: false, Checks: []schemas.CheckResult{}, Failure: ce.Reason}, true
}

// VerdictOf is the verdict of a finished rollout's check results: passed
// when every check is, else check_failed.
func VerdictOf(rs []schemas.CheckResult) schemas.Verdict {
	if rs == nil {
		rs = []schemas.CheckResult{}
	}
	v := schemas.Verdict{Passed: true, Checks: rs}
	for _, r := range rs {
		if !r.OK {
			v.Passed, v.Failure = false, schemas.FailCheck
		}
	}
	return v
}

// CaseOf is what checks.Verify needs to judge traj: the task's checks, the
// final answer, messages and observations, the inputs under data/ and the artifacts, read
// from store (<aa>/<sha256>), under their paths. An artifact whose name the
// checks cannot take (not UTF-8, a backslash or control character; see
// checks.CheckFileName) is a *checks.CaseError with reason artifact_error:
// the rollout chose that name. An artifact path outside output/ or a hash
// that is not one is another error: the trajectory is not one synth
// collected.
func CaseOf(task *schemas.Task, traj *schemas.Trajectory, inputs []sandbox.Input, store string) (checks.Case, error) {
	c := checks.Case{Checks: task.Checks, Answer: traj.FinalAnswer, Messages: traj.Messages, Observations: Observations(traj)}
	for _, in := range inputs {
		c.Files = append(c.Files, sandbox.Input{Name: "data/" + in.Name, Path: in.Path, Root: in.Root})
	}
	for _, a := range traj.Artifacts {
		if !shaRE.MatchString(a.SHA256) {
			return checks.Case{}, fmt.Errorf("artifact %q: %q is not a sha256", a.Path, a.SHA256)
		}
		if !strings.HasPrefix(a.Path, "output/") {
			return checks.Case{}, fmt.Errorf("artifact %q: not under output/", a.Path)
		}
		if err := checks.CheckFileName(a.Path); err != nil {
			return checks.Case{}, &checks.CaseError{Reason: schemas.FailArtifactError, Err: err}
		}
		c.Files = append(c.Files, sandbox.Input{Name: a.Path, Path: filepath.Join(store, a.SHA256[:2], a.SHA256)})
	}
	return c, nil
}

var shaRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

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

// Observations is what traj's code printed, one entry per step: what the
// answer checks hold a stated number to (checks.Case.Observations). Never
// nil: a rollout that ran no code printed nothing.
func Observations(traj *schemas.Trajectory) []string {
	out := make([]string, 0, len(traj.Steps))
	for _, s := range traj.Steps {
		out = append(out, s.Observation)
	}
	return out
}
