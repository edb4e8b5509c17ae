package serve

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// benchSpares is the sandbox's spare interpreters for the benchmarks:
// BENCH_SPARES, or 0 (the sandbox's default, 2).
func benchSpares(b *testing.B) int {
	v := os.Getenv("BENCH_SPARES")
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		b.Fatalf("BENCH_SPARES=%q: want a count", v)
	}
	return n
}

// openLive opens n episodes of t-math with 16 clients, each a real
// interpreter that has run a cell, and returns how many opened.
func openLive(b *testing.B, base string, n int) int {
	var ok atomic.Int64
	next := make(chan struct{}, n)
	for range n {
		next <- struct{}{}
	}
	close(next)
	var wg sync.WaitGroup
	for range min(16, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				var r Result
				if post(b, base+"/reset", "", ResetRequest{TaskID: "t-math"}, &r) != http.StatusOK {
					continue
				}
				var cell Result
				st := post(b, base+"/step", "", map[string]any{"episode_id": r.Observation.EpisodeID, "action": map[string]any{"content": "Action:\n```python\nx = list(range(1000))\nprint(len(x))\n```"}}, &cell)
				if st == http.StatusOK && cell.Observation.Cell == "ok" {
					ok.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return int(ok.Load())
}

// BenchmarkBurst fires BENCH_BURST resets (default 512) at once, each from
// a client of its own, with BENCH_BURST_LIVE episodes already live (a
// comma-separated list, default 0,1536), and reports the resets' p50 and
// p99, the burst's wall time and the share that opened. The sandbox keeps
// BENCH_SPARES spare interpreters (default 2); the burst starts once the
// live episodes are open and the spares have had BENCH_SETTLE (default 2 s
// plus 20 ms a spare) to refill. b.N is ignored: one burst per level.
func BenchmarkBurst(b *testing.B) {
	burst := 512
	if v := os.Getenv("BENCH_BURST"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			burst = n
		}
	}
	settle := 2*time.Second + time.Duration(benchSpares(b))*20*time.Millisecond
	if v := os.Getenv("BENCH_SETTLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("BENCH_SETTLE=%q: %v", v, err)
		}
		settle = d
	}
	levels := []int{0, 1536}
	if v := os.Getenv("BENCH_BURST_LIVE"); v != "" {
		levels = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 0 {
				b.Fatalf("BENCH_BURST_LIVE=%q: want a comma-separated list of counts", v)
			}
			levels = append(levels, n)
		}
	}
	for _, live := range levels {
		b.Run(fmt.Sprintf("live=%d/burst=%d", live, burst), func(b *testing.B) {
			_, base := benchServer(b, live+burst, 1<<30)
			for b.Loop() {
			}
			opened := 0
			if live > 0 {
				opened = openLive(b, base, live)
			}
			time.Sleep(settle)
			var mu sync.Mutex
			var times []time.Duration
			var failed atomic.Int64
			start := make(chan struct{})
			var wg sync.WaitGroup
			for range burst {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					t0 := time.Now()
					var r Result
					if post(b, base+"/reset", "", ResetRequest{TaskID: "t-math"}, &r) != http.StatusOK {
						failed.Add(1)
						return
					}
					mu.Lock()
					times = append(times, time.Since(t0))
					mu.Unlock()
				}()
			}
			t0 := time.Now()
			close(start)
			wg.Wait()
			wall := time.Since(t0)
			b.ReportMetric(float64(opened), "live")
			b.ReportMetric(100*float64(len(times))/float64(burst), "success-%")
			b.ReportMetric(float64(wall.Milliseconds()), "burst-ms")
			reportQuantiles(b, "reset", times)
			b.ReportMetric(loadAverage(), "load1")
		})
	}
}
