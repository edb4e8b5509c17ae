package serve

import (
	"fmt"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"synth/sandbox"
)

// The benchmarks go through HTTP on loopback, as a trainer's requests do
// (scripts/bench-serve.sh runs them; docs/PERFORMANCE.md records a run).

const trivialCell = "Action:\n```python\n1 + 1\n```"

func benchServer(b *testing.B, maxEpisodes, maxTurns int) (*Server, string) {
	b.Helper()
	be := testBackendOf(b, sandbox.Config{Slots: maxEpisodes + 2, Spares: benchSpares(b)})
	if w, ok := be.(interface{ Warm() error }); ok {
		if err := w.Warm(); err != nil {
			b.Fatal(err)
		}
	}
	s, hs := testServer(b, be, Config{MaxEpisodes: maxEpisodes, MaxTurns: maxTurns})
	return s, hs.URL
}

func reportPercentiles(b *testing.B, name string, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), name+"-p50-ms")
	b.ReportMetric(ms(ds[min(len(ds)-1, len(ds)*9/10)]), name+"-p90-ms")
}

func stepHTTP(b *testing.B, base, id, content string) Result {
	var r Result
	if st := post(b, base+"/step", "", map[string]any{"episode_id": id, "action": map[string]any{"content": content}}, &r); st != http.StatusOK {
		b.Fatalf("step: status %d", st)
	}
	return r
}

// BenchmarkReset: a reset's answer (task picked, a fresh sandbox with its
// file open, the opening messages) as the client sees it.
func BenchmarkReset(b *testing.B) {
	s, base := benchServer(b, 4, 10)
	var ds []time.Duration
	for b.Loop() {
		t0 := time.Now()
		var r Result
		if st := post(b, base+"/reset", "", ResetRequest{TaskID: "t-count"}, &r); st != http.StatusOK {
			b.Fatalf("reset: status %d", st)
		}
		ds = append(ds, time.Since(t0))
		s.Abandon(r.Observation.EpisodeID)
	}
	reportPercentiles(b, "reset", ds)
}

// BenchmarkStep: a step running `1 + 1`, and its overhead: the client's
// wall time less the cell's own run as the sandbox timed it.
func BenchmarkStep(b *testing.B) {
	_, base := benchServer(b, 2, 1<<30)
	var r Result
	if st := post(b, base+"/reset", "", ResetRequest{TaskID: "t-math"}, &r); st != http.StatusOK {
		b.Fatalf("reset: status %d", st)
	}
	id := r.Observation.EpisodeID
	var ds, over []time.Duration
	for b.Loop() {
		t0 := time.Now()
		res := stepHTTP(b, base, id, trivialCell)
		d := time.Since(t0)
		if res.Observation.Cell != "ok" {
			b.Fatalf("cell: %+v", res.Observation)
		}
		ds = append(ds, d)
		over = append(over, d-time.Duration(res.Observation.CellMS*float64(time.Millisecond)))
	}
	reportPercentiles(b, "step", ds)
	reportPercentiles(b, "overhead", over)
}

// BenchmarkVerify: the last step of an episode whose answer is checked:
// the sandbox halted and torn down, output/ collected, the checks run in a
// fresh sandbox, the reward answered.
func BenchmarkVerify(b *testing.B) {
	s, base := benchServer(b, 2, 10)
	var ds []time.Duration
	for b.Loop() {
		b.StopTimer()
		var r Result
		if st := post(b, base+"/reset", "", ResetRequest{TaskID: "t-math"}, &r); st != http.StatusOK {
			b.Fatalf("reset: status %d", st)
		}
		id := r.Observation.EpisodeID
		stepHTTP(b, base, id, "Action:\n```python\nprint(17 * 23)\n```")
		b.StartTimer()
		t0 := time.Now()
		res := stepHTTP(b, base, id, "Finished: 391")
		ds = append(ds, time.Since(t0))
		if res.Reward == nil || *res.Reward != 1 {
			b.Fatalf("verdict: %+v", res.Observation)
		}
	}
	reportPercentiles(b, "verify", ds)
	if l := s.Metrics().Latency[latVerify]; l.Count > 0 {
		b.ReportMetric(l.P50, "server-verify-p50-ms")
	}
}

// BenchmarkEpisodes: whole episodes (reset, one cell, a final answer,
// verification) by c clients at once, each with an episode of its own.
func BenchmarkEpisodes(b *testing.B) {
	for _, c := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("c=%d", c), func(b *testing.B) {
			_, base := benchServer(b, c, 10)
			var wg sync.WaitGroup
			work := make(chan struct{})
			start := time.Now()
			for range c {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range work {
						var r Result
						if st := post(b, base+"/reset", "", ResetRequest{TaskID: "t-math"}, &r); st != http.StatusOK {
							b.Errorf("reset: status %d", st)
							return
						}
						id := r.Observation.EpisodeID
						stepHTTP(b, base, id, "Action:\n```python\nprint(17 * 23)\n```")
						if res := stepHTTP(b, base, id, "Finished: 391"); res.Reward == nil || *res.Reward != 1 {
							b.Errorf("verdict: %+v", res.Observation)
						}
					}
				}()
			}
			n := 0
			for b.Loop() {
				work <- struct{}{}
				n++
			}
			close(work)
			wg.Wait()
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "episodes/s")
		})
	}
}
