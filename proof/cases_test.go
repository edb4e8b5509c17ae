package proof

import (
	"slices"
	"testing"

	"synth/checks"
	"synth/checks/adversary"
	"synth/sandbox"
	"synth/schemas"
)

// answerIs is an answer check holding the number v.
func answerIs(v float64) schemas.Check {
	return schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: v}}
}

// result is a verification result of one check, ok or not, named by msg.
func result(ok bool, msg string) []schemas.CheckResult {
	return []schemas.CheckResult{{Kind: schemas.CheckAnswer, OK: ok, Message: msg}}
}

// TestAssembleOutcome proves that each part of a proof gets its own case,
// in the order Outcome reads the results back: the reference, the answer
// checks on its printed output, each wrong solution played (without the
// observations that hold only the reference), each adversary that applied.
func TestAssembleOutcome(t *testing.T) {
	task := &schemas.Task{ID: "t", Checks: []schemas.Check{answerIs(3), {Kind: "file_exists", Path: "output/1.csv"}}}
	inputs := []sandbox.Input{{Name: "a.csv", Path: "/in/a.csv"}}
	ref := checks.Case{Checks: task.Checks, Answer: "3", Observations: []string{"3"}}
	wrong := checks.Case{Checks: task.Checks, Answer: "4", Observations: []string{"4"}}
	applies := adversary.Adversary{Name: "says_nine", Doc: "answers 9", Make: func(*schemas.Task, []sandbox.Input) (adversary.Rollout, bool, error) {
		return adversary.Rollout{Answer: "9"}, true, nil
	}}
	idle := adversary.Adversary{Name: "idle", Doc: "has nothing to try", Make: func(*schemas.Task, []sandbox.Input) (adversary.Rollout, bool, error) {
		return adversary.Rollout{}, false, nil
	}}
	cs, err := Assemble(task, inputs, t.TempDir(), Set{Reference: &ref, Printed: []string{"3", "done"},
		Wrong: []*checks.Case{nil, &wrong}, Adversaries: []adversary.Adversary{idle, applies}})
	if err != nil {
		t.Fatal(err)
	}
	answers := []string{}
	for _, c := range cs.List {
		answers = append(answers, c.Answer)
	}
	if want := []string{"3", "3\ndone", "4", "9"}; !slices.Equal(answers, want) {
		t.Fatalf("cases answer %q, want %q", answers, want)
	}
	if tr := cs.List[1]; !tr.Transcript || len(tr.Checks) != 1 || tr.Checks[0].Kind != schemas.CheckAnswer || len(tr.Files) != 1 || tr.Files[0].Name != "data/a.csv" {
		t.Errorf("printed-output case = %+v, want the answer checks alone over the inputs, as a transcript", tr)
	}
	if cs.List[0].Observations == nil || cs.List[2].Observations != nil {
		t.Errorf("observations: reference %q, wrong %q; want the reference's kept, the wrong one's dropped", cs.List[0].Observations, cs.List[2].Observations)
	}

	o := cs.Outcome([][]schemas.CheckResult{result(true, "ref"), result(false, "printed"), result(true, "wrong"), result(true, "nine")})
	if checks.FirstFailure(o.Reference) != "" || checks.FirstFailure(o.Printed) == "" {
		t.Errorf("reference %v, printed %v: read from the wrong cases", o.Reference, o.Printed)
	}
	if o.Wrong[0] != nil || o.Wrong[1][0].Message != "wrong" {
		t.Errorf("wrong = %v, want [nil, the played one's]", o.Wrong)
	}
	if a := o.Adversaries[0]; a.Adversary != "idle" || a.Applied || a.Passed {
		t.Errorf("idle adversary = %+v, want not applied", a)
	}
	if a := o.Adversaries[1]; a.Adversary != "says_nine" || !a.Applied || !a.Passed || a.Checks[0].Message != "nine" {
		t.Errorf("applied adversary = %+v, want it passed with its own results", a)
	}
}

// TestAssembleWithoutReference proves that a reference not verified has no
// case, nor has its printed output, and reads back as nil.
func TestAssembleWithoutReference(t *testing.T) {
	task := &schemas.Task{ID: "t", Checks: []schemas.Check{answerIs(3)}}
	wrong := checks.Case{Checks: task.Checks, Answer: "4"}
	cs, err := Assemble(task, nil, t.TempDir(), Set{Printed: []string{"3"}, Wrong: []*checks.Case{&wrong}, Adversaries: []adversary.Adversary{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs.List) != 1 || cs.List[0].Answer != "4" {
		t.Fatalf("cases = %+v, want the wrong solution's alone", cs.List)
	}
	o := cs.Outcome([][]schemas.CheckResult{result(false, "wrong")})
	if o.Reference != nil || o.Printed != nil || o.Wrong[0][0].Message != "wrong" {
		t.Errorf("outcome = %+v", o)
	}
}

// TestProofReason proves the verdict's order: the reference's error, an
// answer its code never printed, its failure, its printed output's
// mismatch, a wrong solution that passes, then the adversaries in
// adversary.All's order.
func TestProofReason(t *testing.T) {
	passes := func(names ...string) map[string]*adversary.Result {
		m := map[string]*adversary.Result{}
		for _, n := range names {
			m[n] = &adversary.Result{Adversary: n, Applied: true, Passed: true}
		}
		return m
	}
	yes, no := true, false
	all := adversary.Names()
	cases := []struct {
		name string
		p    Proof
		want string
	}{
		{"holds", Proof{Mutant: &no, Adversaries: passes()}, ""},
		{"reference error first", Proof{ReferenceError: "step 0 ended error", ReferenceFailure: "answer: no", Mutant: &yes}, DropReferenceError},
		{"unsupported answer", Proof{ReferenceFailure: "answer: states 4, which the code's output never showed"}, DropAmbiguousTruth},
		{"reference fails", Proof{ReferenceFailure: "answer: 3 is not 4", ReferenceMismatch: "answer: x"}, DropReferenceFails},
		{"printed mismatch", Proof{ReferenceMismatch: "answer: x", Mutant: &yes}, DropAmbiguousTruth},
		{"mutant passes", Proof{Mutant: &yes, Adversaries: passes(adversary.Empty)}, DropMutantPasses},
		{"empty passes", Proof{Adversaries: passes(all[len(all)-1], adversary.Empty)}, DropEmptyPasses},
		{"other adversary", Proof{Adversaries: passes(all[len(all)-1])}, adversary.Reason(all[len(all)-1])},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got, why := tc.p.Reason(); got != tc.want {
				t.Errorf("Reason() = %q (%s), want %q", got, why, tc.want)
			}
		})
	}
}

// TestOutcomeProof proves how an outcome becomes a Proof: the reference's
// and its printed output's first failures, a mutant that passes when any
// wrong solution passes every check, and each adversary by name.
func TestOutcomeProof(t *testing.T) {
	o := Outcome{Reference: result(true, ""), Printed: result(false, "printed"),
		Wrong:       [][]schemas.CheckResult{result(false, "first"), nil, result(true, "third")},
		Adversaries: []adversary.Result{{Adversary: "x", Applied: true, Passed: true, Checks: result(true, "")}, {Adversary: "y"}}}
	p := o.Proof()
	if p.ReferenceFailure != "" || p.ReferenceMismatch == "" {
		t.Errorf("reference failure %q, mismatch %q", p.ReferenceFailure, p.ReferenceMismatch)
	}
	if p.Mutant == nil || !*p.Mutant {
		t.Errorf("mutant = %v, want passed: the third wrong solution passes every check", p.Mutant)
	}
	if p.Checks["mutant"][0].Message != "first" {
		t.Errorf("mutant checks = %v, want the first wrong solution's", p.Checks["mutant"])
	}
	if !p.Adversaries["x"].Passed || p.Adversaries["y"].Applied {
		t.Errorf("adversaries = %v", p.Adversaries)
	}
	if _, ok := p.Checks["y"]; ok {
		t.Error("an adversary that did not apply has checks")
	}
	if (Outcome{}).Proof().Mutant != nil {
		t.Error("no wrong solution played, yet a mutant verdict")
	}
}
