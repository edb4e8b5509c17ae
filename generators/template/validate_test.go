package template

import (
	"context"
	"os"
	"path/filepath"
	"synth/checks/checkstest"
	"testing"

	"synth/checks/adversary"
	"synth/proof"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// TestValidateDrops proves that each guard of ValidateTask drops the task
// it is for: removing a guard turns its case green where it must be red.
func TestValidateDrops(t *testing.T) {
	pyenvtest.Python(t)
	b := checkstest.Backend(t, 0)
	dir := t.TempDir()
	in := filepath.Join(dir, "sales.csv")
	if err := os.WriteFile(in, []byte("region,sales\nN,5\nS,3\nE,9\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"f1": in}
	writeCSV := schemas.RefStep{Code: "import os, pandas as pd\nos.makedirs('output', exist_ok=True)\npd.read_csv('data/sales.csv').sort_values('sales').to_csv('output/1.csv', index=False)"}
	base := func(cs ...schemas.Check) schemas.Task {
		return schemas.Task{ID: "t", Generator: "test:guards", Files: []schemas.TaskFile{{ID: "f1", Name: "sales.csv"}},
			Outputs: []string{"output/1.csv"}, Checks: cs,
			Reference: &schemas.Reference{Steps: []schemas.RefStep{writeCSV}, Answer: "Sorted into output/1.csv."}}
	}
	// sameRows compares the output's rows with the input's, in any order:
	// the battery's wrong values fail it, the copied input does not.
	sameRows := schemas.Check{Kind: "python", Code: "import pandas as pd\nrows = lambda p: sorted(map(tuple, pd.read_csv(p).astype(str).values.tolist()))\nassert rows('output/1.csv') == rows('data/sales.csv')"}
	// counted is a task whose reference reads the table, prints expr and
	// answers answer.
	counted := func(expr, answer string, cs ...schemas.Check) schemas.Task {
		return schemas.Task{ID: "c", Generator: "test:truth", Files: []schemas.TaskFile{{ID: "f1", Name: "sales.csv"}}, Checks: cs,
			Reference: &schemas.Reference{Steps: []schemas.RefStep{{Code: "import pandas as pd\ndf = pd.read_csv('data/sales.csv')\nprint(" + expr + ")"}}, Answer: answer}}
	}
	// A real template with a mutant: table.sort, its sort check removed, so
	// that the mutant (the other direction) passes.
	sorted := generate(t, Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.sort"}})
	if len(sorted) == 0 {
		t.Fatal("no table.sort task over the corpus")
	}
	_, paths := corpus(t)
	weak := sorted[0]
	var kept []schemas.Check
	for _, c := range weak.Checks {
		if c.SortedBy == nil {
			kept = append(kept, c)
		}
	}
	weak.Checks = kept

	cases := []struct {
		name   string
		task   schemas.Task
		files  map[string]string
		reason string
	}{
		{"holds", base(schemas.Check{Kind: "table", Path: "output/1.csv", Rows: intp(3), SortedBy: &schemas.SortKey{Column: "sales"}}, sameRows), files, ""},
		{"battery passes", base(schemas.Check{Kind: "table", Path: "output/1.csv", Rows: intp(3), SortedBy: &schemas.SortKey{Column: "sales"}}), files, proof.DropBatteryPasses},
		{"reference fails", base(schemas.Check{Kind: "table", Path: "output/1.csv", Rows: intp(4)}), files, proof.DropReferenceFails},
		{"empty passes", base(schemas.Check{Kind: "file", Path: "output/2.csv", Exists: bp(false)}), files, proof.DropEmptyPasses},
		{"adversary passes", base(schemas.Check{Kind: "file", Path: "output/1.csv"}, sameRows), files, adversary.Reason("copy_input")},
		{"mutant passes", weak, paths, proof.DropMutantPasses},
		// The Go side expected 4 rows; the reference's pandas counts 3.
		{"answer its code did not print", counted("len(df)", "The table has 4 rows.", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 4}}), files, proof.DropAmbiguousTruth},
		// An answer held to the value recomputed from the inputs holds; held
		// only to the value recorded when it was written, the reference's
		// answer on perturbed inputs (a stale one) passes too.
		{"answer its code printed", counted("len(df)", "The table has 3 rows.", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 3}},
			schemas.Check{Kind: "python", Code: "import pandas as pd\nanswer_states(answer, len(pd.read_csv('data/sales.csv')))"}), files, ""},
		{"answer held to its recorded value only", counted("len(df)", "The table has 3 rows.", schemas.Check{Kind: "answer", Number: &schemas.NumberMatch{Value: 3}}), files, proof.DropStalePasses},
		{"printed output without the expected word", counted("'S'", "The best region is N.", schemas.Check{Kind: "answer", ContainsAny: []string{"N"}}), files, proof.DropAmbiguousTruth},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reason, why, err := ValidateTask(context.Background(), b, &tc.task, tc.files)
			if err != nil {
				t.Fatal(err)
			}
			if reason != tc.reason {
				t.Fatalf("reason %q (%s), want %q", reason, why, tc.reason)
			}
		})
	}
}

func intp(n int) *int { return &n }
func bp(b bool) *bool { return &b }
