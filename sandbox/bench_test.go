package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/internal/proccpu"
	"synth/schemas"
)

// The benchmarks measure the default configuration (isolation auto, the
// default preload: numpy, pandas, matplotlib) and report medians, which
// scripts/bench-sandbox.sh puts beside a Jupyter kernel's.

var (
	benchOnce sync.Once
	benchB    *backend
	benchErr  error
)

func benchBackend(b *testing.B) *backend {
	b.Helper()
	if _, err := os.Stat(testPython); err != nil {
		b.Skipf("needs %s", testPython)
	}
	benchOnce.Do(func() {
		benchB, benchErr = newBackend(Config{Python: testPython, Slots: 64})
		if benchErr == nil {
			benchErr = benchB.Warm()
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchB
}

func reportMedian(b *testing.B, ds []time.Duration, unit string) {
	slices.Sort(ds)
	med := ds[len(ds)/2]
	switch unit {
	case "ms":
		b.ReportMetric(float64(med.Microseconds())/1000, "median-ms")
	case "us":
		b.ReportMetric(float64(med.Nanoseconds())/1000, "median-us")
	}
}

// BenchmarkOpen: time to a ready interpreter with the heavy modules
// imported, from a warm pool (a spare is waiting, as between rollouts).
func BenchmarkOpen(b *testing.B) {
	benchOpen(b, true)
}

// BenchmarkOpenBackToBack: Open right after the previous sandbox's Close,
// without waiting for the spares to be refilled.
func BenchmarkOpenBackToBack(b *testing.B) {
	benchOpen(b, false)
}

// BenchmarkOpenFirstCell: Open and the first `1+1`, from a warm pool: the
// time until a new rollout has its first result.
func BenchmarkOpenFirstCell(b *testing.B) {
	be := benchBackend(b)
	ctx := context.Background()
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		waitSpares(be)
		b.StartTimer()
		t0 := time.Now()
		s, err := be.Open(ctx, Spec{Seed: int64(i)})
		if err != nil {
			b.Fatal(err)
		}
		if r, err := s.Exec(ctx, "1+1"); err != nil || r.Status != schemas.StatusOK {
			b.Fatal(err, r)
		}
		ds = append(ds, time.Since(t0))
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	reportMedian(b, ds, "ms")
}

func waitSpares(be *backend) {
	for deadline := time.Now().Add(5 * time.Second); len(be.spares) < cap(be.spares) && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
}

func benchOpen(b *testing.B, warm bool) {
	be := benchBackend(b)
	ctx := context.Background()
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if warm {
			b.StopTimer()
			waitSpares(be)
			b.StartTimer()
		}
		t0 := time.Now()
		s, err := be.Open(ctx, Spec{Seed: int64(i)})
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	reportMedian(b, ds, "ms")
}

// BenchmarkRoundTrip: `1+1` from Exec to Result.
func BenchmarkRoundTrip(b *testing.B) {
	benchCell(b, "1+1", "us")
}

// BenchmarkPrint1MiB: a cell printing 1 MiB (with a 2 MiB output limit, so
// nothing is cut).
func BenchmarkPrint1MiB(b *testing.B) {
	benchCell(b, "print('x' * (1 << 20))", "ms")
}

func benchCell(b *testing.B, code, unit string) {
	be := benchBackend(b)
	ctx := context.Background()
	s, err := be.Open(ctx, Spec{Limits: Limits{OutputBytes: 2 << 20}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		r, err := s.Exec(ctx, code)
		ds = append(ds, time.Since(t0))
		if err != nil || r.Status != schemas.StatusOK || r.Truncated {
			b.Fatalf("%v %+v", err, r)
		}
	}
	reportMedian(b, ds, unit)
}

// BenchmarkIdlePSS: proportional set size of 1 and of 10 idle interpreters,
// counting the zygote (and bubblewrap) they share, after each has run a cell.
func BenchmarkIdlePSS(b *testing.B) {
	for _, n := range []int{1, 10} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			be := benchBackend(b)
			for i := 0; i < b.N; i++ {
				var ss []*session
				for j := 0; j < n; j++ {
					s, err := be.Open(context.Background(), Spec{})
					if err != nil {
						b.Fatal(err)
					}
					if r, err := s.Exec(context.Background(), "import pandas as pd, numpy as np\npd.DataFrame(np.zeros((3, 3))).sum().sum()"); err != nil || r.Status != schemas.StatusOK {
						b.Fatal(err, r)
					}
					ss = append(ss, s.(*session))
				}
				time.Sleep(200 * time.Millisecond)
				children := int64(0)
				for _, s := range ss {
					children += pssKiB(s.c.pid)
				}
				b.ReportMetric(float64(treePSSKiB(be.z.cmd.Process.Pid))/1024, "PSS-MiB")
				b.ReportMetric(float64(children)/1024, "children-PSS-MiB")
				for _, s := range ss {
					s.Close()
				}
			}
		})
	}
}

// treePSSKiB sums the PSS of pid and all its descendants: bubblewrap, the
// zygote, spares and interpreters.
func treePSSKiB(pid int) int64 {
	var sum int64
	for _, p := range processTree(pid) {
		sum += pssKiB(p)
	}
	return sum
}

// pssKiB reads a process's proportional set size.
func pssKiB(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "Pss:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// BenchmarkRolloutCPU: the infrastructure's CPU time (synth, bubblewrap,
// the zygote, spares and interpreters, user and system) per trivial
// rollout, run one after another from a warm pool: Open, two trivial cells,
// Close; and the same followed by a verification-sized sandbox (three
// read-only inputs, one cell), as a build verifies each rollout in a fresh
// one. Refilling the spares is counted, since every rollout uses one up.
func BenchmarkRolloutCPU(b *testing.B) {
	inputs := benchInputs(b)
	for _, verify := range []bool{false, true} {
		name := "rollout"
		if verify {
			name = "rollout+verify"
		}
		b.Run(name, func(b *testing.B) {
			be := benchBackend(b)
			ctx := context.Background()
			run := func(spec Spec, cells ...string) {
				s, err := be.Open(ctx, spec)
				if err != nil {
					b.Fatal(err)
				}
				for _, code := range cells {
					if r, err := s.Exec(ctx, code); err != nil || r.Status != schemas.StatusOK {
						b.Fatal(err, r)
					}
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
			settle(be)
			cpu0 := proccpu.Tree()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				run(Spec{Seed: int64(i)}, "x = 1\nprint(x)", "print(x + 1)")
				if verify {
					run(Spec{Inputs: inputs}, "print(len(__import__('os').listdir('data')))")
				}
			}
			settle(be)
			b.StopTimer()
			cpu := proccpu.Tree() - cpu0
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/rollout")
		})
	}
}

// settle waits until the spares are refilled and removed cgroups are gone,
// so that a CPU reading holds all the work of the rollouts before it.
func settle(be *backend) {
	waitSpares(be)
	be.cg.removes.Wait()
	time.Sleep(50 * time.Millisecond)
}

// benchInputs makes three read-only files, the size of a small task's table,
// image and answer, which a build hard-links into a verification sandbox.
func benchInputs(b *testing.B) []Input {
	dir := b.TempDir()
	var ins []Input
	for name, size := range map[string]int{"table.csv": 4 << 10, "plot.png": 20 << 10, "answer.txt": 16} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, size), 0o444); err != nil {
			b.Fatal(err)
		}
		ins = append(ins, Input{Name: name, Path: p})
	}
	return ins
}
