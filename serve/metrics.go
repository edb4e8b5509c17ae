package serve

import (
	"slices"
	"sync"
	"time"
)

// metrics counts what the server did and keeps recent latencies. It is safe
// for concurrent use.
type metrics struct {
	mu       sync.Mutex
	started  time.Time
	counts   Counts
	rewards  float64
	failures map[string]int
	lat      map[string]*window
}

// Counts are the server's totals since it started.
type Counts struct {
	Episodes  int64 `json:"episodes"`  // reset answered with an episode
	Finished  int64 `json:"finished"`  // ended and verified
	Reaped    int64 `json:"reaped"`    // abandoned, torn down by the idle timeout
	Abandoned int64 `json:"abandoned"` // ended without a verdict: a new reset on the connection, a closed connection, shutdown
	Busy      int64 `json:"busy"`      // resets refused: every episode slot taken
	Steps     int64 `json:"steps"`
	Passed    int64 `json:"passed"` // finished with reward 1
	Errors    int64 `json:"errors"` // requests answered with an error
}

// window keeps the last n samples of one latency.
type window struct {
	s    []time.Duration
	next int
	n    int64
}

const windowSize = 10000

func (w *window) add(d time.Duration) {
	if len(w.s) < windowSize {
		w.s = append(w.s, d)
	} else {
		w.s[w.next] = d
		w.next = (w.next + 1) % windowSize
	}
	w.n++
}

// Latency is a latency's percentiles in milliseconds over the last
// windowSize samples, and how many samples there were in all.
type Latency struct {
	Count int64   `json:"count"`
	P50   float64 `json:"p50_ms"`
	P90   float64 `json:"p90_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
}

func (w *window) latency() Latency {
	s := slices.Clone(w.s)
	slices.Sort(s)
	at := func(q float64) float64 {
		if len(s) == 0 {
			return 0
		}
		return float64(s[min(len(s)-1, int(q*float64(len(s))))].Microseconds()) / 1000
	}
	return Latency{Count: w.n, P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: at(1)}
}

func newMetrics() *metrics {
	return &metrics{started: time.Now(), failures: map[string]int{}, lat: map[string]*window{}}
}

// The latencies the server measures.
const (
	latReset  = "reset"  // a reset's answer: task chosen, sandbox open
	latStep   = "step"   // a step's answer, cell and (on the last) verification included
	latCell   = "cell"   // the cell's own run, as the sandbox timed it
	latVerify = "verify" // collection and verification at an episode's end
)

func (m *metrics) observe(name string, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.lat[name]
	if w == nil {
		w = &window{}
		m.lat[name] = w
	}
	w.add(d)
}

func (m *metrics) count(f func(c *Counts)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f(&m.counts)
}

func (m *metrics) finished(reward float64, failure string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts.Finished++
	m.rewards += reward
	if reward > 0 {
		m.counts.Passed++
	}
	if failure != "" {
		m.failures[failure]++
	}
}

// Snapshot is what /metrics answers.
type Snapshot struct {
	Uptime     float64            `json:"uptime_s"`
	Active     int                `json:"active_episodes"`
	Max        int                `json:"max_episodes"`
	Counts     Counts             `json:"counts"`
	MeanReward float64            `json:"mean_reward"`
	Failures   map[string]int     `json:"failures"`
	Latency    map[string]Latency `json:"latency"`
}

func (m *metrics) snapshot(active, max int) Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := Snapshot{Uptime: time.Since(m.started).Seconds(), Active: active, Max: max, Counts: m.counts,
		Failures: map[string]int{}, Latency: map[string]Latency{}}
	for k, v := range m.failures {
		s.Failures[k] = v
	}
	if m.counts.Finished > 0 {
		s.MeanReward = m.rewards / float64(m.counts.Finished)
	}
	for k, w := range m.lat {
		s.Latency[k] = w.latency()
	}
	return s
}
