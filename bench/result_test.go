package bench

import (
	"testing"

	"synth/schemas"
)

// TestResultOf: a result takes its verdict from the trajectory: passed,
// failed with the rollout's failure (check_crash and artifact_error are
// the model's, and count), failed by the infrastructure (not counted), or
// with no verdict at all.
func TestResultOf(t *testing.T) {
	task := &schemas.Task{ID: "t1", Index: "1"}
	for _, tc := range []struct {
		verdict       *schemas.Verdict
		passed, infra bool
		failure       string
	}{
		{&schemas.Verdict{Passed: true}, true, false, ""},
		{&schemas.Verdict{Failure: schemas.FailCheck}, false, false, schemas.FailCheck},
		{&schemas.Verdict{Failure: schemas.FailCheckCrash}, false, false, schemas.FailCheckCrash},
		{&schemas.Verdict{Failure: schemas.FailArtifactError}, false, false, schemas.FailArtifactError},
		{&schemas.Verdict{Failure: schemas.FailSandboxCrash}, false, true, schemas.FailSandboxCrash},
		{&schemas.Verdict{Failure: schemas.FailTeacherError}, false, true, schemas.FailTeacherError},
		{nil, false, false, ""},
	} {
		r := ResultOf(task, &schemas.Trajectory{ID: "r1", Verdict: tc.verdict}, 1)
		if r.Passed != tc.passed || r.Infra != tc.infra || r.Failure != tc.failure || r.TaskID != "t1" {
			t.Errorf("verdict %+v: result passed %v, infra %v, failure %q", tc.verdict, r.Passed, r.Infra, r.Failure)
		}
	}
}
