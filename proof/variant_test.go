package proof

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/sandbox"
	"synth/schemas"
	"synth/sources/sample"
)

// salesTask is a one-step task over sales.csv whose reference prints code's
// result and whose answer states it.
func salesTask(code, answer string, cs ...schemas.Check) *schemas.Task {
	return &schemas.Task{ID: "t", Index: "7", Files: []schemas.TaskFile{{ID: "f", Name: "sales.csv", Type: "csv"}}, Checks: cs,
		Reference: &schemas.Reference{Answer: answer, Steps: []schemas.RefStep{
			{Code: "import pandas as pd\ndf = pd.read_csv('data/sales.csv')\n" + code}}}}
}

// TestVariantTruthFromRerun proves that a twin's truth is what the
// reference printed on the perturbed inputs (every third row dropped: 20
// units, not 30), that its checks are re-derived from that printout, that
// the original answer fails the twin (moved), and that a truth the
// perturbation does not touch (the column count) is kept and not moved.
func TestVariantTruthFromRerun(t *testing.T) {
	b := newBackend(t)
	ctx := context.Background()
	task := salesTask("print('units', int(df['units'].sum()))", "The total of units is 30.", answerIs(30))
	v, err := MakeVariant(ctx, b, task, salesInputs(t), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Skipped != "" {
		t.Fatalf("no twin: %s", v.Skipped)
	}
	if got := v.Task.Reference.Answer; got != "The total of units is 20." {
		t.Errorf("twin answer %q, want the rerun's total (20)", got)
	}
	if got := v.Task.Checks[0].Number.Value; got != 20 {
		t.Errorf("twin check expects %v, want 20", got)
	}
	if !v.Moved {
		t.Error("the original answer (30) passes the twin: truth not moved")
	}
	if v.Task.Files[0].ID == "f" || v.Inputs[v.Task.Files[0].ID] == "" || v.Task.ID == task.ID || v.Task.Index != "7" {
		t.Errorf("twin files %+v, inputs %v, id %s, index %s: want the perturbed copy's digest, its path, a new id and the same index", v.Task.Files, v.Inputs, v.Task.ID, v.Task.Index)
	}

	mean := salesTask("print('mean', round(df['price'].mean(), 4))", "The mean price is 2.17.", schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: 2.1667, AbsTol: 0.01}})
	v, err = MakeVariant(ctx, b, mean, salesInputs(t), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Skipped != "" || v.Task.Reference.Answer != "The mean price is 3.56." || !v.Moved {
		t.Errorf("an answer rounding what was printed: skipped %q, answer %q, moved %v; want the rerun's 3.5625 stated as 3.56", v.Skipped, v.Task.Reference.Answer, v.Moved)
	}

	cols := salesTask("print('columns', len(df.columns))", "The table has 3 columns.", answerIs(3))
	v, err = MakeVariant(ctx, b, cols, salesInputs(t), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Skipped != "" || v.Moved {
		t.Errorf("column count: skipped %q, moved %v; want a twin whose truth did not move", v.Skipped, v.Moved)
	}
}

// TestVariantRefusesStaleTruth proves that a twin is not made when its
// truth cannot be re-derived: a text answer whose printed line changed on
// the perturbed inputs, and a check holding a value of the original inputs
// that the rerun's outputs no longer meet.
func TestVariantRefusesStaleTruth(t *testing.T) {
	b := newBackend(t)
	ctx := context.Background()
	third := salesTask("print(df.sort_values('price', ascending=False)['region'].tolist()[2])", "The third priciest region is S.",
		schemas.Check{Kind: schemas.CheckAnswer, ContainsAll: []string{"S"}})
	v, err := MakeVariant(ctx, b, third, salesInputs(t), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.Skipped, "text truth may have moved") {
		t.Errorf("a text answer whose line changed: skipped %q, want the text refused", v.Skipped)
	}
	unprinted := salesTask("print('done')", "The total of units is 30.", answerIs(30))
	v, err = MakeVariant(ctx, b, unprinted, salesInputs(t), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.Skipped, "never showed") {
		t.Errorf("an answer number the code never printed: skipped %q, want the twin's proof to refuse it", v.Skipped)
	}
	copyTask := salesTask("import os\nos.makedirs('output', exist_ok=True)\ndf.to_csv('output/out.csv', index=False)\nprint('saved')", "Saved.",
		schemas.Check{Kind: schemas.CheckPython, Code: "import pandas as pd\nassert len(pd.read_csv('output/out.csv')) == 6, 'rows'"})
	v, err = MakeVariant(ctx, b, copyTask, salesInputs(t), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.Skipped, "twin's reference fails its checks") {
		t.Errorf("a literal of the original inputs: skipped %q, want the twin's proof to refuse it", v.Skipped)
	}
}

// TestVariantPerturbsMedia: a twin is made for a recording (cut to its
// first two thirds: 1.5 s becomes 1.0 s) beside an input the split does
// not perturb (a JSON file, copied out of the sandbox as it is), and every
// input of the twin is read from what the sandbox wrote, never from the
// benchmark's own folder.
func TestVariantPerturbsMedia(t *testing.T) {
	b := newBackend(t)
	root := t.TempDir()
	xs := make([]float64, 12000) // 1.5 s at 8 kHz
	for i := range xs {
		xs[i] = 0.12 * math.Sin(float64(i)/5)
	}
	if err := os.WriteFile(filepath.Join(root, "beep.wav"), sample.WAV(xs, 8000), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "meta.json"), []byte(`{"unit": "seconds"}`), 0o444); err != nil {
		t.Fatal(err)
	}
	task := &schemas.Task{ID: "t", Index: "3", Checks: []schemas.Check{answerIs(1.5)},
		Files: []schemas.TaskFile{{ID: "w", Name: "beep.wav", Type: "wav"}, {ID: "j", Name: "meta.json", Type: "json"}},
		Reference: &schemas.Reference{Answer: "The recording lasts 1.5 seconds.", Steps: []schemas.RefStep{{Code: "import wave, json\n" +
			"w = wave.open('data/beep.wav')\nunit = json.load(open('data/meta.json'))['unit']\nprint('length', round(w.getnframes() / w.getframerate(), 2), unit)"}}}}
	inputs := []sandbox.Input{{Name: "beep.wav", Root: root, Path: "beep.wav"}, {Name: "meta.json", Root: root, Path: "meta.json"}}
	store := t.TempDir()
	v, err := MakeVariant(context.Background(), b, task, inputs, store, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Skipped != "" {
		t.Fatalf("no twin: %s", v.Skipped)
	}
	if got := v.Task.Reference.Answer; got != "The recording lasts 1 seconds." && got != "The recording lasts 1.0 seconds." {
		t.Errorf("twin answer %q, want the cut recording's 1.0 s", got)
	}
	if !v.Moved {
		t.Error("the original answer passes the twin: truth not moved")
	}
	for id, p := range v.Inputs {
		if !strings.HasPrefix(p, store) {
			t.Errorf("twin input %s is read from %s, not from what the sandbox wrote under %s", id, p, store)
		}
	}
}
