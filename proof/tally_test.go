package proof

import (
	"testing"

	"synth/checks"
	"synth/schemas"
)

// TestJudgedBattery proves that random answers count only when the blank
// answer fails: a task whose checks do not read the answer passes them
// all, and that says nothing against its checks.
func TestJudgedBattery(t *testing.T) {
	bat := []Tried{{Name: "table_zeros"}, {Name: BlankAnswer, Passed: true}, {Name: randomPrefix + "0", Passed: true}}
	p := Outcome{Battery: bat}.Proof()
	if got := len(p.Battery); got != 1 || p.Battery[0].Name != "table_zeros" {
		t.Errorf("answer not judged: battery %v, want the table case alone", p.Battery)
	}
	if r, _ := p.Reason(); r != "" {
		t.Errorf("answer not judged: dropped %s", r)
	}
	bat[1].Passed = false
	p = Outcome{Battery: bat}.Proof()
	if len(p.Battery) != 3 {
		t.Fatalf("answer judged: battery %v, want all three", p.Battery)
	}
	if r, why := p.Reason(); r != DropBatteryPasses {
		t.Errorf("a random answer passes where the blank one fails: reason %q (%s), want %s", r, why, DropBatteryPasses)
	}
}

// TestTally proves how a proof counts as a grader: every wrong solution
// tried and each one rejected, the stale ones apart, the task dropped
// when one passed; a task whose reference failed counts nothing.
func TestTally(t *testing.T) {
	no := false
	p := Proof{Mutant: &no, Unmoved: true, Battery: []Tried{{Name: "answer_zeros"}, {Name: StaleCase}, {Name: "table_zeros", Passed: true}}}
	got := p.Tally()
	want := Tally{Tasks: 1, Wrong: 4, Rejected: 3, Stale: 1, StaleRejected: 1, Unmoved: 1, Dropped: 1}
	if got != want {
		t.Errorf("tally %+v, want %+v", got, want)
	}
	var sum Tally
	sum.Add(got)
	sum.Add(Proof{Battery: []Tried{{Name: StaleCase, Passed: true}}}.Tally())
	if sum.Tasks != 2 || sum.Stale != 2 || sum.StaleRejected != 1 || sum.Dropped != 2 {
		t.Errorf("sum %+v", sum)
	}
	if (Proof{ReferenceFailure: "x", Battery: []Tried{{Name: "a"}}}).Tally() != (Tally{}) {
		t.Error("a task whose reference failed counts as a grader")
	}
}

// TestAnswerVariants proves the answer's neighbours: every statement of an
// expected value moved (a fraction too), and two values swapped only when
// they stand for different things.
func TestAnswerVariants(t *testing.T) {
	num := func(vs ...float64) *schemas.Task {
		task := &schemas.Task{}
		for _, v := range vs {
			task.Checks = append(task.Checks, schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: v, AbsTol: 0.001}})
		}
		return task
	}
	tests := []struct {
		answer string
		task   *schemas.Task
		want   map[string]string
	}{
		{"The limit is 6/5 ≈ 1.2000.", num(1.2), map[string]string{"answer_zeros": "The limit is 0 ≈ 0.", "answer_off": "The limit is 1.4200 ≈ 1.4200."}},
		{"The image is 240 pixels wide and 300 pixels high.", num(240, 300), map[string]string{"answer_swapped": "The image is 300 pixels wide and 240 pixels high."}},
		{"The roots are x = -6 and x = 1.", num(-6, 1), map[string]string{"answer_swapped": ""}},
		{"Top 5 regions; the total is 30.", num(30), map[string]string{"answer_zeros": "Top 5 regions; the total is 0."}},
	}
	for _, tc := range tests {
		got := map[string]string{}
		for _, w := range answerVariants(tc.task, checks.Case{Answer: tc.answer}) {
			got[w.Name] = w.Case.Answer
		}
		for name, want := range tc.want {
			if got[name] != want {
				t.Errorf("%q: %s = %q, want %q", tc.answer, name, got[name], want)
			}
		}
	}
}
