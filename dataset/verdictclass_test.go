package dataset

import (
	"testing"

	"synth/schemas"
)

// TestRowVerdictClass: a row is judged when a judge took part, retried
// when it passed on a later try, verified otherwise.
func TestRowVerdictClass(t *testing.T) {
	for _, tc := range []struct {
		tr   schemas.Trajectory
		want string
	}{
		{schemas.Trajectory{ID: "a", Verdict: &schemas.Verdict{Passed: true}}, schemas.VerdictVerified},
		{schemas.Trajectory{ID: "b", Attempt: 2, Verdict: &schemas.Verdict{Passed: true}}, schemas.VerdictRetried},
		{schemas.Trajectory{ID: "c", Attempt: 3, Verdict: &schemas.Verdict{Passed: true, Judge: "judge-1"}}, schemas.VerdictJudged},
	} {
		if got := RowOf(nil, &tc.tr, nil).VerdictClass; got != tc.want {
			t.Errorf("%s: class %q, want %q", tc.tr.ID, got, tc.want)
		}
	}
}

func TestVerdictClassesValidate(t *testing.T) {
	if err := (Config{VerdictClasses: []string{"verified", "proven"}}).Validate(); err == nil {
		t.Error("an unknown verdict class validates")
	}
	if err := (Config{VerdictClasses: []string{"verified", "retried"}}).Validate(); err != nil {
		t.Error(err)
	}
}
