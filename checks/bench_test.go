package checks

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"synth/schemas"
)

// BenchmarkVerify measures one verification of a typical task (a table, an
// image and an answer check): a fresh verification sandbox from a warm
// backend, its files linked in, the checks run.
func BenchmarkVerify(b *testing.B) {
	dir := workspace(b)
	benchVerify(b, Case{Answer: "Finished: 3 rows", Files: dirFiles(b, dir), Checks: []schemas.Check{
		{Kind: "table", Path: "output/clean.csv", Rows: intp(3), NoDuplicates: true, NoNulls: true},
		{Kind: "image", Path: "output/rot.png", Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "rotate:90", MinSimilarity: 0.9}},
		{Kind: "answer", Number: &schemas.NumberMatch{Value: 3, AbsTol: 0.01}},
	}})
}

// BenchmarkVerifySpreadsheet measures a verification that reads an xlsx
// output: the spreadsheet reader (openpyxl) must be imported before any
// rollout file is read, which costs about 100 ms where it is not resident.
func BenchmarkVerifySpreadsheet(b *testing.B) {
	dir := workspace(b)
	if _, err := os.Stat(filepath.Join(dir, "output", "clean.xlsx")); err != nil {
		b.Skip("no openpyxl to write the spreadsheet")
	}
	benchVerify(b, Case{Files: dirFiles(b, dir), Checks: []schemas.Check{
		{Kind: "table", Path: "output/clean.xlsx", Rows: intp(3), NoDuplicates: true, NoNulls: true},
	}})
}

// BenchmarkVerifyModule measures a verification whose check imports a
// produced module, in the disposable child that runs rollout code.
func BenchmarkVerifyModule(b *testing.B) {
	dir := workspace(b)
	mod := filepath.Join(dir, "output", "m.py")
	if err := os.WriteFile(mod, []byte("def square(x):\n    return x * x\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	benchVerify(b, Case{Files: dirFiles(b, dir), Checks: []schemas.Check{
		{Kind: "python", Code: "m = load_module('output/m.py')\nassert m.square(3) == 9"},
	}})
}

// benchVerify verifies c b.N times, each in a fresh verification sandbox
// of one warm backend, fails on any failed check and reports the median in
// milliseconds: the target is a median, and a shared machine's outliers
// move the mean.
func benchVerify(b *testing.B, c Case) {
	be := openBackend(b)
	ctx := context.Background()
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		all, err := Verify(ctx, be, []Case{c})
		ds = append(ds, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range all[0] {
			if !r.OK {
				b.Fatal(r.Message)
			}
		}
	}
	b.StopTimer()
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "median-ms")
}
