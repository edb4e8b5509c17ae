package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/bench"
	"synth/rundir"
)

// TestBenchCalibrateChecksTheBenchmark proves that synth bench calibrate
// refuses results scored on another benchmark (another content hash), as a
// usage error, and that with the benchmark's own results it rewrites the
// bands in its difficulty file.
func TestBenchCalibrateChecksTheBenchmark(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bench")
	os.MkdirAll(filepath.Join(dir, bench.DataDir), 0o755)
	os.WriteFile(filepath.Join(dir, bench.TasksFile), []byte(`{"id":"t-math","index":"2","category":"complex_math","query":"17*23?","checks":[{"kind":"answer","number":{"value":391}}]}`+"\n"), 0o644)
	if err := bench.WriteDifficulty(dir, bench.Difficulty{Tasks: []bench.TaskDifficulty{{Index: "2", TaskID: "t-math", Steps: 1, Band: bench.BandMedium}}}); err != nil {
		t.Fatal(err)
	}
	hash, err := bench.ContentHash(dir)
	if err != nil {
		t.Fatal(err)
	}
	results := func(h string) string {
		res := filepath.Join(t.TempDir(), "res")
		os.MkdirAll(res, 0o755)
		info, _ := json.Marshal(map[string]string{"bench": dir, "bench_hash": h})
		os.WriteFile(filepath.Join(res, rundir.EvalInfo), info, 0o644)
		os.WriteFile(filepath.Join(res, rundir.EvalSummary), []byte(`{"model":"m"}`), 0o644)
		os.WriteFile(filepath.Join(res, rundir.EvalResults), []byte(`{"id":"r","index":"2","task_id":"t-math","passed":true}`+"\n"), 0o644)
		return res
	}
	calibrate := func(res string) error {
		root := newRoot()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs([]string{"bench", "calibrate", res})
		return root.Execute()
	}
	err = calibrate(results("0000"))
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "content hash") {
		t.Fatalf("results of another benchmark: %v, want a usage error naming the content hash", err)
	}
	if err := calibrate(results(hash)); err != nil {
		t.Fatal(err)
	}
	d, _, err := bench.LoadDifficulty(dir)
	if err != nil || d.Bands.Source != bench.BandsCalibrated || d.Tasks[0].Band != bench.BandEasy {
		t.Errorf("difficulty %+v (%v), want task 2 calibrated easy", d, err)
	}
}
