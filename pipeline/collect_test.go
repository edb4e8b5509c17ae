package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"synth/config"
	"synth/rundir"
	"synth/schemas"
)

// identicalFiles writes n copies of one small CSV under a fresh folder and
// returns it.
func identicalFiles(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%50))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("copy%05d.csv", i)), []byte("k,v\n1,2\n3,4\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

func collectLocal(tb testing.TB, src, out string) {
	tb.Helper()
	cfg := config.Default()
	cfg.Sources.Specs = []string{"local:" + src}
	if _, err := Collect(context.Background(), cfg, Options{Out: out}); err != nil {
		tb.Fatal(err)
	}
}

// readFileSet reads a run's manifest back as a resumed build does.
func readFileSet(tb testing.TB, out string) *fileSet {
	tb.Helper()
	_, fs, err := newBuilder(config.Default(), Options{Out: out}).knownFiles()
	if err != nil {
		tb.Fatal(err)
	}
	return fs
}

// TestManifestGrowsLinearlyWithDuplicates collects 2,000 identical files:
// the manifest holds one record and a short reference per duplicate, and
// reading it back gives one file with every provenance.
func TestManifestGrowsLinearlyWithDuplicates(t *testing.T) {
	const n = 2000
	src := identicalFiles(t, n)
	out := filepath.Join(t.TempDir(), "run")
	start := time.Now()
	collectLocal(t, src, out)
	took := time.Since(start)
	st, err := os.Stat(filepath.Join(out, rundir.Files))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d identical files: files.jsonl %d bytes (%d per file), collect %v", n, st.Size(), st.Size()/n, took)
	if st.Size() > n*400 {
		t.Errorf("files.jsonl is %d bytes for %d identical files, want at most 400 a file", st.Size(), n)
	}
	lines, err := rundir.ReadAll[schemas.File](filepath.Join(out, rundir.Files))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != n {
		t.Errorf("%d manifest lines, want %d (one record, %d references)", len(lines), n, n-1)
	}
	for _, l := range lines[1:] {
		if l.DuplicateOf != lines[0].ID || l.Preview != nil || l.Sources != nil {
			t.Fatalf("a duplicate's line is %+v, want a reference to %s with its source only", l, lines[0].ID)
		}
	}
	fs := readFileSet(t, out)
	if len(fs.order) != 1 {
		t.Fatalf("%d files read back, want 1", len(fs.order))
	}
	f := fs.byID[fs.order[0]]
	refs := map[string]bool{}
	for _, s := range f.Sources {
		refs[s.Ref] = true
	}
	if len(f.Sources) != n || len(refs) != n || f.Sources[0] != f.Source {
		t.Errorf("read back with %d provenances (%d distinct), first %v; want %d, the first first", len(f.Sources), len(refs), f.Sources[0].Ref, n)
	}

	// Collecting again (an interrupted collect redone) appends nothing.
	if err := os.Remove(filepath.Join(out, rundir.RunInfo)); err != nil {
		t.Fatal(err)
	}
	collectLocal(t, src, out)
	again, err := os.Stat(filepath.Join(out, rundir.Files))
	if err != nil {
		t.Fatal(err)
	}
	if again.Size() != st.Size() {
		t.Errorf("collecting the same files again grew files.jsonl from %d to %d bytes", st.Size(), again.Size())
	}
}

// TestResumeReadsAnOldManifest reads a manifest written before reference
// records, where each duplicate repeats the record with every provenance
// so far, and collects a new duplicate on top of it.
func TestResumeReadsAnOldManifest(t *testing.T) {
	src := identicalFiles(t, 3)
	out := filepath.Join(t.TempDir(), "run")
	collectLocal(t, src, out)
	lines, err := rundir.ReadAll[schemas.File](filepath.Join(out, rundir.Files))
	if err != nil {
		t.Fatal(err)
	}
	// Rewrite it the old way: a full record per arrival, provenance so far.
	first := lines[0]
	var old []schemas.File
	all := []schemas.Source{first.Source}
	old = append(old, first)
	for _, l := range lines[1:] {
		all = append(all, l.Source)
		f := first
		f.Sources = append([]schemas.Source(nil), all...)
		old = append(old, f)
	}
	path := filepath.Join(out, rundir.Files)
	os.Remove(path)
	j, err := rundir.OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range old {
		if err := j.Append(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, rundir.RunInfo)); err != nil {
		t.Fatal(err)
	}
	// A fourth copy arrives on the resumed collect.
	if err := os.WriteFile(filepath.Join(src, "d00", "late.csv"), []byte("k,v\n1,2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	collectLocal(t, src, out)
	fs := readFileSet(t, out)
	if len(fs.order) != 1 {
		t.Fatalf("%d files, want 1", len(fs.order))
	}
	f := fs.byID[fs.order[0]]
	if len(f.Sources) != 4 || f.Sources[0] != first.Source || f.Sources[3].Ref != "d00/late.csv" || f.Preview == nil {
		t.Errorf("after resume: %d provenances %+v, preview %v; want the 3 old ones, then d00/late.csv", len(f.Sources), f.Sources, f.Preview)
	}
	lines, err = rundir.ReadAll[schemas.File](path)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 4 || lines[3].DuplicateOf != first.ID {
		t.Errorf("manifest after resume: %d lines, last %+v; want the old 3 and one reference", len(lines), lines[len(lines)-1])
	}
}

// BenchmarkCollectDuplicates collects n identical local files (the worst
// case of the manifest: one content, n provenances) and reports CPU
// microseconds and manifest bytes per file, which should not grow with n.
func BenchmarkCollectDuplicates(b *testing.B) {
	for _, n := range []int{2000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			src := identicalFiles(b, n)
			var spent time.Duration
			var size int64
			for i := 0; b.Loop(); i++ {
				out := filepath.Join(b.TempDir(), fmt.Sprint("run", i))
				cfg := config.Default()
				cfg.Sources.Specs = []string{"local:" + src}
				r := newBuilder(cfg, Options{Out: out})
				if err := r.open(context.Background()); err != nil {
					b.Fatal(err)
				}
				start := cpuTime(b)
				if _, err := r.collect(context.Background()); err != nil {
					b.Fatal(err)
				}
				readFileSet(b, out)
				spent += cpuTime(b) - start
				st, err := os.Stat(filepath.Join(out, rundir.Files))
				if err != nil {
					b.Fatal(err)
				}
				size = st.Size()
			}
			b.ReportMetric(float64(spent.Microseconds())/float64(b.N*n), "us/file")
			b.ReportMetric(float64(size)/float64(n), "manifest-B/file")
		})
	}
}

// cpuTime returns the CPU time this process has used, so the benchmark's
// figure holds on a machine shared with other work.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
