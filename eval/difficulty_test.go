package eval

import (
	"context"
	"path/filepath"
	"testing"

	"synth/bench"
	"synth/llm/llmtest"
	"synth/schemas"
)

// TestDifficultyOfflineBands measures the hand-made benchmark with the
// offline teachers: the reference passes every task and the empty and
// shotgun rollouts none; the weak solver, which does the first step only,
// passes the one-cell tasks (easy) and fails the two-step sort (medium);
// and an eval of a benchmark with the bands reports its pass rate per band.
func TestDifficultyOfflineBands(t *testing.T) {
	b := sharedEvalBackend(t)
	dir := copyBench(t)
	d, err := MeasureDifficulty(context.Background(), Config{Bench: dir, Concurrency: 2}, Options{Backend: b},
		[]string{TeacherReference, TeacherEmpty, TeacherWeak, "adversary:shotgun"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Tasks) != 4 || d.Bands.Source != bench.BandsOffline {
		t.Fatalf("difficulty %+v, want the 4 tasks banded offline", d)
	}
	for _, td := range d.Tasks {
		r := td.PassRates
		if r[TeacherReference] != 1 || r[TeacherEmpty] != 0 || r["adversary:shotgun"] != 0 || td.Steps != 1 {
			t.Errorf("task %s: pass rates %v, steps %d; want reference 1, empty 0, shotgun 0, one step", td.Index, r, td.Steps)
		}
		want := bench.BandEasy
		if td.Index == "2" {
			want = bench.BandMedium
		}
		if td.Band != want || (r[TeacherWeak] == 1) != (want == bench.BandEasy) {
			t.Errorf("task %s: weak %v, band %s; want %s", td.Index, r[TeacherWeak], td.Band, want)
		}
	}
	if err := bench.WriteDifficulty(dir, d); err != nil {
		t.Fatal(err)
	}
	cfg := evalConfig(TeacherWeak, "")
	cfg.Bench = dir
	res := runEval(t, cfg, filepath.Join(t.TempDir(), "weak"))
	s := res.Summary
	if s.Bands != bench.BandsOffline || s.PerBand[bench.BandEasy].PassRate != 1 || s.PerBand[bench.BandMedium].PassRate != 0 || s.PerBand[bench.BandMedium].Tasks != 1 {
		t.Errorf("weak eval per band %+v (%s), want easy 100%%, medium 0%% of 1 task", s.PerBand, s.Bands)
	}
}

// TestCalibrateFromAModel recalibrates the bands from a model served over
// the OpenAI API (an httptest server) that solves the data-analysis tasks
// only: those become easy, the others hard, and the model's next eval
// reports 100% on the easy band and 0% on the hard one.
func TestCalibrateFromAModel(t *testing.T) {
	b := sharedEvalBackend(t)
	dir := copyBench(t)
	d, err := MeasureDifficulty(context.Background(), Config{Bench: dir, Concurrency: 2}, Options{Backend: b}, []string{TeacherWeak})
	if err != nil {
		t.Fatal(err)
	}
	tasks := evalTasks(t)
	url := llmtest.NewServer(t, refSolver(tasks, func(t *schemas.Task) bool { return t.Category == schemas.CategoryData })).URL
	cfg := evalConfig(TeacherOpenAI, url)
	cfg.Bench = dir
	res := runEval(t, cfg, filepath.Join(t.TempDir(), "model"))
	f, err := LoadFolder(res.Out)
	if err != nil {
		t.Fatal(err)
	}
	if n := d.Calibrate(tasks, f.Results, "fake-model", res.Out); n != 4 {
		t.Fatalf("calibrated %d tasks, want 4", n)
	}
	for _, td := range d.Tasks {
		want := bench.BandHard
		if td.Index == "1" || td.Index == "2" {
			want = bench.BandEasy
		}
		if td.Band != want {
			t.Errorf("task %s: band %s, want %s (model rate %v)", td.Index, td.Band, want, td.ModelPassRate)
		}
	}
	if err := bench.WriteDifficulty(dir, d); err != nil {
		t.Fatal(err)
	}
	s := runEval(t, cfg, filepath.Join(t.TempDir(), "again")).Summary
	if s.Bands != bench.BandsCalibrated || s.PerBand[bench.BandEasy].PassRate != 1 || s.PerBand[bench.BandHard].PassRate != 0 {
		t.Errorf("per band %+v (%s), want calibrated: easy 100%%, hard 0%%", s.PerBand, s.Bands)
	}
}
