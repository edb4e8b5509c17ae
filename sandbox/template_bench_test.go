package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"synth/schemas"
)

// BenchmarkPreloadedReset: a task whose input is a CSV of about
// SYNTH_PRELOAD_MB megabytes (100 by default; numbers and labels written
// here), served two ways in one interleaved run, each round one sandbox of
// each: from a template that read the file once (NewTemplate), and from a
// plain backend whose fresh interpreter reads it (as every episode does
// without preloading). For each it reports the reset (Open: a spare bound
// to a workspace holding the file) and the reset plus the first cell that
// has the frame (len(inputs[...]) against pd.read_csv), p50 and p99, with
// the machine's load. b.N rounds: run it with -benchtime Nx and few rounds.
func BenchmarkPreloadedReset(b *testing.B) {
	if _, err := os.Stat(testPython); err != nil {
		b.Skipf("needs %s", testPython)
	}
	if os.Geteuid() != 0 {
		b.Skip("preloaded inputs need root")
	}
	mb := 100
	if v := os.Getenv("SYNTH_PRELOAD_MB"); v != "" {
		fmt.Sscan(v, &mb)
	}
	path := filepath.Join(b.TempDir(), "big.csv")
	if err := writeBigCSV(path, int64(mb)<<20); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	inputs := []Input{{Name: "big.csv", Path: path}}
	cfg := Config{Python: testPython, Slots: 4}
	t0 := time.Now()
	tmpl, err := NewTemplate(cfg, inputs, []Read{{Name: "data/big.csv", Call: `pd.read_csv("data/big.csv")`}}, TemplateLimits{})
	if err != nil {
		b.Fatal(err)
	}
	defer tmpl.Close()
	start := time.Since(t0)
	fresh, err := newBackend(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer fresh.Close()
	if err := fresh.Warm(); err != nil {
		b.Fatal(err)
	}
	sides := []struct {
		name  string
		b     *backend
		cell  string
		reset []time.Duration
		first []time.Duration
	}{
		{name: "preloaded", b: tmpl.(*backend), cell: "df = inputs['data/big.csv']\nlen(df)"},
		{name: "fresh read", b: fresh, cell: "import pandas as pd\ndf = pd.read_csv('data/big.csv')\nlen(df)"},
	}
	ctx := context.Background()
	var rows string
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range sides {
			sd := &sides[k]
			b.StopTimer()
			waitSpares(sd.b)
			b.StartTimer()
			t0 := time.Now()
			s, err := sd.b.Open(ctx, Spec{Inputs: inputs, Seed: int64(i)})
			if err != nil {
				b.Fatal(err)
			}
			sd.reset = append(sd.reset, time.Since(t0))
			r, err := s.Exec(ctx, sd.cell)
			if err != nil || r.Status != schemas.StatusOK {
				b.Fatal(sd.name, err, r.Output)
			}
			sd.first = append(sd.first, time.Since(t0))
			if rows == "" {
				rows = strings.TrimSpace(r.Output)
			}
			b.StopTimer()
			s.Close()
			b.StartTimer()
		}
	}
	b.StopTimer()
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("\npreload: %.0f MB CSV, %s rows, %d rounds interleaved; template start (imports and read) %s; load %s",
		float64(st.Size())/1e6, rows, b.N, start.Round(time.Millisecond), load)
	for _, sd := range sides {
		fmt.Printf("preload: %-10s  reset p50 %8s p99 %8s   reset+frame p50 %8s p99 %8s\n", sd.name,
			pct(sd.reset, 50), pct(sd.reset, 99), pct(sd.first, 50), pct(sd.first, 99))
	}
	b.ReportMetric(float64(pct(sides[0].reset, 50).Microseconds())/1000, "preloaded-reset-p50-ms")
	b.ReportMetric(float64(pct(sides[1].first, 50).Microseconds())/1000, "fresh-reset+read-p50-ms")
}

// pct is the p-th percentile of ds (nearest rank).
func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s), i)-1)].Round(10 * time.Microsecond)
}

// writeBigCSV writes a CSV of at least size bytes: an id, two numbers and a
// label per row.
func writeBigCSV(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("id,value,score,label\n")
	var n int64
	for i := 0; n < size; i++ {
		k, _ := fmt.Fprintf(w, "%d,%d,%d.%02d,label%d\n", i, i*7919%100000, i%997, i%100, i%17)
		n += int64(k)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
