package eval

import (
	"context"
	"path/filepath"
	"testing"

	"synth/bench"
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
