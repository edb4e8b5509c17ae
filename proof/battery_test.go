package proof

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/checks/adversary"
	"synth/sandbox"
	"synth/schemas"
)

// salesInputs writes a small sales table and returns it as a task's input.
func salesInputs(t *testing.T) []sandbox.Input {
	dir := t.TempDir()
	in := filepath.Join(dir, "sales.csv")
	if err := os.WriteFile(in, []byte("region,units,price\nN,5,1.5\nS,3,2.25\nE,9,0.5\nW,4,3.0\nC,7,1.25\nX,2,4.5\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	return []sandbox.Input{{Name: "sales.csv", Path: in}}
}

// proveBattery plays the task's reference with its battery and proves the
// task with them (no adversaries), returning the battery and the proof.
func proveBattery(t *testing.T, b sandbox.Backend, task *schemas.Task, inputs []sandbox.Input) (Battery, Proof) {
	t.Helper()
	ctx := context.Background()
	store := t.TempDir()
	ref, bat, err := PlayBattery(ctx, b, task, task.Reference, inputs, store)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Failed != "" {
		t.Fatalf("reference failed: %s", ref.Failed)
	}
	o, err := Prove(ctx, b, task, inputs, Set{Reference: &ref.Case, Printed: ref.Printed, Battery: bat.Cases, Adversaries: []adversary.Adversary{}})
	if err != nil {
		t.Fatal(err)
	}
	p := o.Proof()
	p.Unmoved = bat.Unmoved
	return bat, p
}

func names(bat Battery) []string {
	var out []string
	for _, w := range bat.Cases {
		out = append(out, w.Name)
	}
	return out
}

// TestBatteryRejectedByContentChecks proves that a task whose checks
// compare what was computed rejects every case of its battery: the answer's
// number zeroed and moved off, the stale answer from perturbed inputs, and
// an output table's wrong values; and that a task whose table checks read
// only its shape is dropped by the right-shape, wrong-values cases.
func TestBatteryRejectedByContentChecks(t *testing.T) {
	b := newBackend(t)
	inputs := salesInputs(t)
	sum := func(cs ...schemas.Check) *schemas.Task {
		return &schemas.Task{ID: "sum", Files: []schemas.TaskFile{{ID: "f", Name: "sales.csv", Type: "csv"}}, Checks: cs,
			Reference: &schemas.Reference{Answer: "The total of units is 30.", Steps: []schemas.RefStep{
				{Code: "import pandas as pd\ndf = pd.read_csv('data/sales.csv')\nprint(int(df['units'].sum()))"}}}}
	}
	bat, p := proveBattery(t, b, sum(answerIs(30)), inputs)
	if got := names(bat); !slices.Equal(got, []string{"answer_zeros", "answer_off", StaleCase}) {
		t.Fatalf("battery = %v, want the answer's neighbours and the stale answer", got)
	}
	if stale := bat.Cases[2].Case.Answer; stale != "The total of units is 20." {
		t.Errorf("stale answer %q, want the rerun's total on every third row dropped (20)", stale)
	}
	if r, why := p.Reason(); r != "" {
		t.Errorf("a strict number check: dropped %s (%s)", r, why)
	}
	loose := answerIs(30)
	loose.Number.AbsTol = 15
	if _, p := proveBattery(t, b, sum(loose), inputs); !slices.ContainsFunc(p.Battery, func(x Tried) bool { return x.Passed }) {
		t.Error("a check that accepts 30 give or take 15 passed no battery case")
	} else if r, _ := p.Reason(); r != DropBatteryPasses {
		t.Errorf("loose check: reason %q, want %s", r, DropBatteryPasses)
	}

	sorted := &schemas.Task{ID: "sort", Files: []schemas.TaskFile{{ID: "f", Name: "sales.csv", Type: "csv"}}, Outputs: []string{"output/s.csv"},
		Checks: []schemas.Check{{Kind: schemas.CheckTable, Path: "output/s.csv", Rows: intp(6), ColumnsInclude: []string{"region", "units"}}},
		Reference: &schemas.Reference{Answer: "Sorted.", Steps: []schemas.RefStep{
			{Code: "import os, pandas as pd\nos.makedirs('output', exist_ok=True)\npd.read_csv('data/sales.csv').sort_values('units').to_csv('output/s.csv', index=False)"}}}}
	bat, p = proveBattery(t, b, sorted, inputs)
	for _, want := range []string{"table_zeros", "table_misaligned", "table_empty_cells", StaleCase} {
		if !slices.Contains(names(bat), want) {
			t.Errorf("battery %v lacks %s", names(bat), want)
		}
	}
	if r, why := p.Reason(); r != DropBatteryPasses || !strings.Contains(why, "table_") {
		t.Errorf("shape-only table checks: reason %q (%s), want %s naming a table case", r, why, DropBatteryPasses)
	}
}

// TestBatteryStale proves that a task whose checks accept the output its
// reference wrote from perturbed inputs is dropped as stale_passes, that
// a task whose answer no perturbation moves is marked unmoved (counted,
// not dropped) and has no stale case, and that one whose image output
// moved is not unmoved.
func TestBatteryStale(t *testing.T) {
	b := newBackend(t)
	inputs := salesInputs(t)
	files := []schemas.TaskFile{{ID: "f", Name: "sales.csv", Type: "csv"}}
	total := &schemas.Task{ID: "txt", Files: files, Outputs: []string{"output/total.txt"},
		Checks: []schemas.Check{{Kind: schemas.CheckFile, Path: "output/total.txt", MinBytes: 1}},
		Reference: &schemas.Reference{Answer: "Written to output/total.txt.", Steps: []schemas.RefStep{
			{Code: "import os, pandas as pd\nos.makedirs('output', exist_ok=True)\nopen('output/total.txt', 'w').write(str(pd.read_csv('data/sales.csv')['units'].sum()))"}}}}
	_, p := proveBattery(t, b, total, inputs)
	if r, why := p.Reason(); r != DropStalePasses {
		t.Errorf("a file check that any text passes: reason %q (%s), want %s", r, why, DropStalePasses)
	}

	cols := &schemas.Task{ID: "cols", Files: files, Checks: []schemas.Check{answerIs(3)},
		Reference: &schemas.Reference{Answer: "The table has 3 columns.", Steps: []schemas.RefStep{
			{Code: "import pandas as pd\nprint(pd.read_csv('data/sales.csv').shape[1])"}}}}
	bat, p := proveBattery(t, b, cols, inputs)
	if !bat.Unmoved || slices.Contains(names(bat), StaleCase) {
		t.Errorf("column count: unmoved %v, battery %v; want unmoved and no stale case", bat.Unmoved, names(bat))
	}
	if r, why := p.Reason(); r != "" {
		t.Errorf("column count: dropped %s (%s)", r, why)
	}

	// An image drawn from the data moved, though no check reads its bytes:
	// the task is not one whose truth ignores its data.
	plot := &schemas.Task{ID: "png", Files: files, Outputs: []string{"output/plot.png"},
		Checks: []schemas.Check{{Kind: schemas.CheckFile, Path: "output/plot.png", MinBytes: 1}, answerIs(3)},
		Reference: &schemas.Reference{Answer: "The table has 3 columns; the plot is output/plot.png.", Steps: []schemas.RefStep{
			{Code: "import os, pandas as pd\ndf = pd.read_csv('data/sales.csv')\nos.makedirs('output', exist_ok=True)\nopen('output/plot.png', 'w').write(str(df['units'].sum()))\nprint(df.shape[1])"}}}}
	bat, p = proveBattery(t, b, plot, inputs)
	if bat.Unmoved {
		t.Errorf("an image drawn from perturbed data: unmoved, want moved")
	}
}

func intp(n int) *int { return &n }
