package eval

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/bench"
)

// copyBench copies the hand-made benchmark into a folder of its own.
func copyBench(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{bench.TasksFile, "data/nums.csv", "data/words.txt"} {
		b, err := os.ReadFile(filepath.Join(evalBench, name))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestVariantSplitAcceptance is the variant split's acceptance on the
// hand-made benchmark: the reference scores 100% on both halves, eval
// reports both and their difference per category, and a solver that
// replays the original answers scores 0 on every twin whose truth moved.
func TestVariantSplitAcceptance(t *testing.T) {
	b := sharedEvalBackend(t)
	dir := copyBench(t)
	sum, err := bench.MakeVariants(context.Background(), b, dir, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Twins == 0 || sum.Moved == 0 {
		t.Fatalf("%d twins, %d moved: want twins whose truth moved (%+v)", sum.Twins, sum.Moved, sum.Records)
	}
	cfg := evalConfig(TeacherReference, "")
	cfg.Bench = dir
	res := runEval(t, cfg, filepath.Join(t.TempDir(), "ref"))
	v := res.Summary.Variant
	if v == nil {
		t.Fatal("eval of a benchmark with a variant split reports no variant score")
	}
	if v.Twins != sum.Twins || v.Original != 1 || v.Variant != 1 || v.Difference != 0 || v.VariantMoved != 1 {
		t.Errorf("reference: %+v, want %d twins at 100%% on both halves", v, sum.Twins)
	}
	if len(v.PerCategory) == 0 {
		t.Error("no per-category variant scores")
	}
	report, _ := os.ReadFile(res.Report)
	if !strings.Contains(string(report), "## Variant split") {
		t.Error("report.md has no variant split section")
	}

	cfg = evalConfig(TeacherReplay, "")
	cfg.Bench, cfg.Teacher.Replay = filepath.Join(dir, bench.VariantDir), filepath.Join(dir, bench.VariantDir, bench.StaleFile)
	stale := runEval(t, cfg, filepath.Join(t.TempDir(), "stale"))
	byIndex := map[string]bool{}
	for _, r := range sum.Records {
		byIndex[r.Index] = r.Moved
	}
	f, err := LoadFolder(stale.Out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Results {
		if byIndex[r.Index] && r.Passed {
			t.Errorf("the original answer of task %s passes its twin, whose truth moved", r.Index)
		}
	}
	cfg.Bench, cfg.SkipVariants = dir, true // the same answers pass the originals
	orig := runEval(t, cfg, filepath.Join(t.TempDir(), "orig"))
	if orig.Summary.Variant != nil {
		t.Error("SkipVariants: the variant split was scored")
	}
	f, err = LoadFolder(orig.Out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Results {
		if _, twinned := byIndex[r.Index]; twinned && byIndex[r.Index] && !r.Passed {
			t.Errorf("the stale solver fails original task %s: it does not replay the original answers", r.Index)
		}
	}
}
