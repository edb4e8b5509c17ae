package serve

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The capacity sweep of scripts/bench-serve.sh (docs/PERFORMANCE.md,
// "Capacity"): whole episodes by c clients at once, over HTTP on loopback,
// as a trainer's requests come.

// benchLevels is a comma-separated list of client counts from the
// environment variable name, or def.
func benchLevels(b *testing.B, name string, def []int) []int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			b.Fatalf("%s=%q: want a comma-separated list of client counts", name, v)
		}
		out = append(out, n)
	}
	return out
}

// reportQuantiles reports the p50 and p99 of ds in milliseconds.
func reportQuantiles(b *testing.B, name string, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), name+"-p50-ms")
	b.ReportMetric(ms(ds[min(len(ds)-1, len(ds)*99/100)]), name+"-p99-ms")
}

// sandboxPSS is the proportional set size, in bytes, of every sandbox
// process of this test process (smaps_rollup; shared pages split among
// their sharers).
func sandboxPSS() int64 {
	var total int64
	for _, pid := range sandboxPIDs() {
		raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "smaps_rollup"))
		if err != nil {
			continue
		}
		for _, line := range bytes.Split(raw, []byte("\n")) {
			if f := strings.Fields(string(line)); len(f) >= 2 && f[0] == "Pss:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				total += kb << 10
			}
		}
	}
	return total
}

func loadAverage() float64 {
	raw, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// episodeTimes is what one client measured of its episodes.
type episodeTimes struct {
	mu       sync.Mutex
	reset    []time.Duration
	overhead []time.Duration // a cell step's wall time less the cell's own run
	verdict  []time.Duration
	passed   atomic.Int64
	failed   atomic.Int64 // reward 0, or a request that failed
}

// playOne plays a whole episode of t-math (reset, a cell, the answer 391,
// the verdict) and records its times; it reports whether it got reward 1.
func (m *episodeTimes) playOne(b *testing.B, base string) {
	t0 := time.Now()
	var r Result
	if st := post(b, base+"/reset", "", ResetRequest{TaskID: "t-math"}, &r); st != http.StatusOK {
		m.failed.Add(1)
		return
	}
	reset := time.Since(t0)
	id := r.Observation.EpisodeID
	t1 := time.Now()
	var cell Result
	if st := post(b, base+"/step", "", map[string]any{"episode_id": id, "action": map[string]any{"content": "Action:\n```python\nprint(17 * 23)\n```"}}, &cell); st != http.StatusOK || cell.Observation.Cell != "ok" {
		m.failed.Add(1)
		return
	}
	over := time.Since(t1) - time.Duration(cell.Observation.CellMS*float64(time.Millisecond))
	t2 := time.Now()
	var fin Result
	st := post(b, base+"/step", "", map[string]any{"episode_id": id, "action": map[string]any{"content": "Finished: 391"}}, &fin)
	verdict := time.Since(t2)
	if st != http.StatusOK || fin.Reward == nil || *fin.Reward != 1 {
		m.failed.Add(1)
		return
	}
	m.passed.Add(1)
	m.mu.Lock()
	m.reset = append(m.reset, reset)
	m.overhead = append(m.overhead, over)
	m.verdict = append(m.verdict, verdict)
	m.mu.Unlock()
}

// BenchmarkCapacity sweeps the number of clients (BENCH_CLIENTS, default
// 1,4,16,64), each playing whole episodes with an episode of its own
// (--max-episodes = clients), and reports at each level: episodes per
// second, reset and step overhead p50 and p99, the verdict's p50 and p99,
// the success rate, and the load average at the end.
func BenchmarkCapacity(b *testing.B) {
	for _, c := range benchLevels(b, "BENCH_CLIENTS", []int{1, 4, 16, 64}) {
		b.Run(fmt.Sprintf("c=%d", c), func(b *testing.B) {
			_, base := benchServer(b, c, 10)
			var m episodeTimes
			var wg sync.WaitGroup
			work := make(chan struct{})
			start := time.Now()
			for range c {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range work {
						m.playOne(b, base)
					}
				}()
			}
			for b.Loop() {
				work <- struct{}{}
			}
			close(work)
			wg.Wait()
			n := m.passed.Load() + m.failed.Load()
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "episodes/s")
			b.ReportMetric(100*float64(m.passed.Load())/float64(max(n, 1)), "success-%")
			reportQuantiles(b, "reset", m.reset)
			reportQuantiles(b, "overhead", m.overhead)
			reportQuantiles(b, "verdict", m.verdict)
			b.ReportMetric(loadAverage(), "load1")
		})
	}
}

// BenchmarkLive holds n live episodes at once (BENCH_LIVE, default
// 64,256), each a real interpreter that has run a cell, and reports the
// PSS per live session (every sandbox process's PSS summed, over n), the
// resets and first steps that succeeded, the reset and step overhead p50
// and p99 of opening them with 16 clients, and a step's overhead p99 with
// all n live. b.N is ignored: one pass per level.
func BenchmarkLive(b *testing.B) {
	for _, n := range benchLevels(b, "BENCH_LIVE", []int{64, 256}) {
		b.Run(fmt.Sprintf("live=%d", n), func(b *testing.B) {
			s, base := benchServer(b, n, 1<<30)
			for b.Loop() {
			}
			var m episodeTimes
			ids := make(chan string, n)
			var wg sync.WaitGroup
			next := make(chan struct{}, n)
			for range n {
				next <- struct{}{}
			}
			close(next)
			for range min(16, n) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range next {
						t0 := time.Now()
						var r Result
						if st := post(b, base+"/reset", "", ResetRequest{TaskID: "t-math"}, &r); st != http.StatusOK {
							m.failed.Add(1)
							continue
						}
						reset := time.Since(t0)
						t1 := time.Now()
						var cell Result
						st := post(b, base+"/step", "", map[string]any{"episode_id": r.Observation.EpisodeID, "action": map[string]any{"content": "Action:\n```python\nx = list(range(1000))\nprint(len(x))\n```"}}, &cell)
						if st != http.StatusOK || cell.Observation.Cell != "ok" {
							m.failed.Add(1)
							continue
						}
						m.passed.Add(1)
						m.mu.Lock()
						m.reset = append(m.reset, reset)
						m.overhead = append(m.overhead, time.Since(t1)-time.Duration(cell.Observation.CellMS*float64(time.Millisecond)))
						m.mu.Unlock()
						ids <- r.Observation.EpisodeID
					}
				}()
			}
			wg.Wait()
			close(ids)
			live := s.Open()
			pss := sandboxPSS()
			b.ReportMetric(float64(live), "live")
			b.ReportMetric(100*float64(m.passed.Load())/float64(n), "success-%")
			b.ReportMetric(float64(pss)/float64(max(live, 1))/(1<<20), "pss-MiB/session")
			reportQuantiles(b, "reset", m.reset)
			reportQuantiles(b, "overhead", m.overhead)
			// One step on each live episode, 16 at a time, with all n live.
			var busy []time.Duration
			var mu sync.Mutex
			all := make(chan string, n)
			for id := range ids {
				all <- id
			}
			close(all)
			for range min(16, n) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for id := range all {
						t0 := time.Now()
						var r Result
						if st := post(b, base+"/step", "", map[string]any{"episode_id": id, "action": map[string]any{"content": trivialCell}}, &r); st == http.StatusOK {
							mu.Lock()
							busy = append(busy, time.Since(t0)-time.Duration(r.Observation.CellMS*float64(time.Millisecond)))
							mu.Unlock()
						}
					}
				}()
			}
			wg.Wait()
			reportQuantiles(b, "overhead-all-live", busy)
			b.ReportMetric(loadAverage(), "load1")
		})
	}
}
