package filters

import (
	"errors"
	"strings"

	"synth/sandbox"
	"synth/schemas"
)

// What every player of rollouts (build, eval, serve) does between the last
// turn and the verdict.

// Collect stops every process of sb, then copies what the rollout left under
// output/ into the content-addressed store and records it as t's
// artifacts. A rollout whose processes would not stop, or whose output/
// breaks the collection limits or holds anything but plain files, gets that
// failure as its verdict (artifact_limit, artifact_error), with why in
// t.Error: the caller goes on.
func Collect(sb sandbox.Sandbox, t *schemas.Trajectory, store string, lim sandbox.CollectLimits) {
	fail := func(reason string, err error) {
		t.Error = strings.TrimPrefix(t.Error+"; artifacts: "+err.Error(), "; ")
		t.Verdict = &schemas.Verdict{Failure: reason, Checks: []schemas.CheckResult{}}
	}
	if h, ok := sb.(sandbox.Halter); ok {
		if err := h.Halt(); err != nil {
			fail(schemas.FailArtifactError, err)
			return
		}
	}
	arts, err := sandbox.Collect(sb.Workspace(), store, lim)
	t.Artifacts = arts
	var ce *sandbox.CollectError
	switch {
	case errors.As(err, &ce):
		fail(ce.Reason, err)
	case err != nil:
		fail(schemas.FailArtifactError, err)
	}
}

// Unverified gives t the verdict of a verification that err stopped: the
// rollout's failure when what it left stopped it (RolloutFailure:
// artifact_error, check_crash), else sandbox_crash, an infrastructure
// failure; with why in t.Error.
func Unverified(t *schemas.Trajectory, err error) {
	v, ok := RolloutFailure(err)
	if !ok {
		v = schemas.Verdict{Failure: schemas.FailSandboxCrash, Checks: []schemas.CheckResult{}}
	}
	t.Verdict = &v
	t.Error = strings.TrimPrefix(t.Error+"; verify: "+err.Error(), "; ")
}
