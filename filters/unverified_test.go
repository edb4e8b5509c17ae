package filters

import (
	"errors"
	"fmt"
	"testing"

	"synth/checks"
	"synth/schemas"
)

// TestUnverifiedBlamesWhatStoppedIt: a verification that what the rollout
// left stopped (a *checks.CaseError, wrapped or not) fails the rollout with
// the error's reason; any other error is the infrastructure's,
// sandbox_crash; both keep why in the trajectory's error.
func TestUnverifiedBlamesWhatStoppedIt(t *testing.T) {
	ce := &checks.CaseError{Reason: schemas.FailCheckCrash, Err: errors.New("cell died")}
	for _, tc := range []struct {
		err     error
		failure string
	}{
		{ce, schemas.FailCheckCrash},
		{fmt.Errorf("verify r1: %w", &checks.CaseError{Reason: schemas.FailArtifactError, Err: errors.New("bad name")}), schemas.FailArtifactError},
		{errors.New("zygote gone"), schemas.FailSandboxCrash},
	} {
		tr := &schemas.Trajectory{ID: "r1", Error: "earlier"}
		Unverified(tr, tc.err)
		if tr.Verdict == nil || tr.Verdict.Passed || tr.Verdict.Failure != tc.failure || tr.Error != "earlier; verify: "+tc.err.Error() {
			t.Errorf("%v: verdict %+v, error %q; want %s", tc.err, tr.Verdict, tr.Error, tc.failure)
		}
		if _, ok := RolloutFailure(tc.err); ok != (tc.failure != schemas.FailSandboxCrash) {
			t.Errorf("RolloutFailure(%v) ok = %v", tc.err, ok)
		}
	}
}
