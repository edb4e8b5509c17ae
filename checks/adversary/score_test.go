package adversary

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// TestScore: an adversary whose every check passed is scored as passing
// (the task it passes is dropped); one check failed, no checks at all, or
// an adversary that had nothing to try is not.
func TestScore(t *testing.T) {
	ok := schemas.CheckResult{Kind: "answer", OK: true}
	bad := schemas.CheckResult{Kind: "table", OK: false, Message: "has 0 rows"}
	cases := []struct {
		name    string
		applied bool
		rs      []schemas.CheckResult
		passed  bool
	}{
		{"every check passed", true, []schemas.CheckResult{ok, ok}, true},
		{"one check failed", true, []schemas.CheckResult{ok, bad}, false},
		{"the first check failed", true, []schemas.CheckResult{bad, ok}, false},
		{"no checks", true, nil, false},
		{"not applied", false, []schemas.CheckResult{ok}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := []Result{{Adversary: "a", Applied: tc.applied}}
			Score(res, [][]schemas.CheckResult{tc.rs})
			if res[0].Passed != tc.passed {
				t.Fatalf("passed %v, want %v", res[0].Passed, tc.passed)
			}
			if tc.applied && len(res[0].Checks) != len(tc.rs) {
				t.Fatalf("%d checks recorded, want %d", len(res[0].Checks), len(tc.rs))
			}
			if !tc.applied && res[0].Checks != nil {
				t.Fatalf("checks recorded for an adversary that did not apply: %+v", res[0].Checks)
			}
		})
	}
	// Results are matched by position: the second adversary's verdict is
	// the second case's.
	res := []Result{{Adversary: "a", Applied: true}, {Adversary: "b", Applied: true}}
	Score(res, [][]schemas.CheckResult{{bad}, {ok}})
	if res[0].Passed || !res[1].Passed {
		t.Fatalf("scored %+v, want a failing, b passing", res)
	}
}

// everyTask are the adversaries that apply to any task: each must make a
// case whatever the task asks for.
var everyTask = []string{Empty, "shotgun", "shadow_modules", "forged_code"}

// TestEveryAdversaryMakesACase: Cases makes one result and one case per
// adversary of All, in its order; the adversaries that apply to any task
// apply to a task that asks for nothing but an answer and to one that asks
// for a file; the file adversaries apply where there is an output to fake.
func TestEveryAdversaryMakesACase(t *testing.T) {
	dir := t.TempDir()
	in := dir + "/sales.csv"
	if err := os.WriteFile(in, []byte("region,sales\nN,5\nS,3\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	inputs := []sandbox.Input{{Name: "sales.csv", Path: in}}
	answer := schemas.Task{ID: "a", Checks: []schemas.Check{{Kind: "answer", ContainsAll: []string{"N"}}}}
	table := schemas.Task{ID: "t", Outputs: []string{"output/clean.csv"}, Checks: []schemas.Check{{Kind: "table", Path: "output/clean.csv", Rows: intp(2)}}}
	for _, tc := range []struct {
		task    schemas.Task
		applied []string
	}{
		{answer, everyTask},
		{table, []string{Empty, "shotgun", "copy_input", "random_bytes", "empty_table", "shadow_modules", "forged_code"}},
	} {
		res, cases, err := Cases(&tc.task, inputs, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != len(All()) || len(cases) != len(All()) {
			t.Fatalf("task %s: %d results and %d cases for %d adversaries", tc.task.ID, len(res), len(cases), len(All()))
		}
		var applied []string
		for i, a := range All() {
			if res[i].Adversary != a.Name {
				t.Fatalf("task %s: result %d is %s's, want %s's", tc.task.ID, i, res[i].Adversary, a.Name)
			}
			if res[i].Applied != (len(cases[i].Checks) > 0) {
				t.Errorf("task %s: %s applied=%v with %d checks", tc.task.ID, a.Name, res[i].Applied, len(cases[i].Checks))
			}
			if res[i].Applied {
				applied = append(applied, a.Name)
			}
		}
		if !slices.Equal(applied, tc.applied) {
			t.Errorf("task %s: applied %v, want %v", tc.task.ID, applied, tc.applied)
		}
	}
}

// TestDocsListEveryAdversary: docs/HACK_RESISTANCE.md's table of
// adversaries and its template × adversary table's columns name exactly
// All, in its order.
func TestDocsListEveryAdversary(t *testing.T) {
	doc, err := os.ReadFile("../../docs/HACK_RESISTANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	row := regexp.MustCompile(`(?m)^\| ([a-z_]+) \| [^|]+ \|$`)
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		if m[1] != "adversary" { // the table's header
			listed = append(listed, m[1])
		}
	}
	if !slices.Equal(listed, Names()) {
		t.Errorf("docs/HACK_RESISTANCE.md lists the adversaries %v, All is %v", listed, Names())
	}
	header := "| template | reference | mutant | " + strings.Join(Names(), " | ") + " |"
	if !strings.Contains(string(doc), header+"\n") {
		t.Errorf("docs/HACK_RESISTANCE.md's table lacks the header %q", header)
	}
}
