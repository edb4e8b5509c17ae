package proof

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"synth/checks/checkstest"
	"testing"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

func newBackend(t *testing.T) sandbox.Backend { return checkstest.Backend(t, 0) }

// TestPlay proves that a played solution's case holds its answer, the
// inputs under data/ and the files it wrote under output/, that what each
// step printed is kept, and that a step that raised is named.
func TestPlay(t *testing.T) {
	b := newBackend(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "n.csv")
	if err := os.WriteFile(in, []byte("n\n2\n5\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	inputs := []sandbox.Input{{Name: "n.csv", Path: in}}
	task := &schemas.Task{ID: "t", Checks: []schemas.Check{answerIs(7)}}
	sol := &schemas.Reference{Answer: "The total is 7.", Steps: []schemas.RefStep{
		{Code: "import os, pandas as pd\nos.makedirs('output', exist_ok=True)\ns = int(pd.read_csv('data/n.csv')['n'].sum())\nopen('output/sum.txt', 'w').write(str(s))\nprint(s)"},
		{Code: "raise ValueError('late')"},
	}}
	p, err := Play(context.Background(), b, task, sol, inputs, filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Printed) != 2 || strings.TrimSpace(p.Printed[0]) != "7" {
		t.Errorf("printed = %q, want 7 then the error", p.Printed)
	}
	if !strings.HasPrefix(p.Failed, "step 1 ended") || !strings.Contains(p.Failed, "late") {
		t.Errorf("failed = %q, want step 1 named with its error", p.Failed)
	}
	if p.Case.Answer != sol.Answer || p.Case.Messages[0].Content != "Finished: "+sol.Answer || p.Case.Observations != nil {
		t.Errorf("case = %+v", p.Case)
	}
	var names []string
	for _, f := range p.Case.Files {
		names = append(names, f.Name)
	}
	if strings.Join(names, " ") != "data/n.csv output/sum.txt" {
		t.Fatalf("case files = %q, want the input and the written output", names)
	}
	if got, err := os.ReadFile(p.Case.Files[1].Path); err != nil || string(got) != "7" {
		t.Errorf("collected output/sum.txt = %q, %v", got, err)
	}
}

// TestVerifyShares proves that Verify gives each case the results
// checks.Verify gives it alone: answer checks copied from an earlier case
// with the same answer are copied only when the observations they are held
// to are the same too, and a long answer is verified in a cell of its own.
func TestVerifyShares(t *testing.T) {
	b := newBackend(t)
	cs := []schemas.Check{answerIs(4), {Kind: schemas.CheckAnswer, ContainsAll: []string{"times"}}}
	long := "4 times " + strings.Repeat("x", 2000)
	cases := []checks.Case{
		{Checks: cs, Answer: "occurs 4 times", Observations: []string{"10"}}, // 4 was never printed
		{Checks: cs, Answer: "occurs 4 times"},
		{Checks: cs, Answer: "occurs 4 times"},
		{Checks: cs, Answer: long},
		{Checks: cs, Answer: "5 times"},
	}
	for i := range cases {
		cases[i].Messages = []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + cases[i].Answer}}
	}
	got, err := Verify(context.Background(), b, cases, 2000)
	if err != nil {
		t.Fatal(err)
	}
	want, err := checks.Verify(context.Background(), b, cases)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cases {
		if checks.FirstFailure(got[i]) != checks.FirstFailure(want[i]) || len(got[i]) != len(want[i]) {
			t.Errorf("case %d: %v, alone %v", i, got[i], want[i])
		}
	}
	if checks.FirstFailure(want[0]) == "" || checks.FirstFailure(want[1]) != "" || checks.FirstFailure(want[4]) == "" {
		t.Fatalf("the cases do not test what they are for: %v", want)
	}
}
