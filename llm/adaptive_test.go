package llm

import (
	"testing"
	"time"
)

// TestAdaptiveSizes: replies of very different lengths from a server that
// keeps up (its latency all overhead, or all decoding) never cut the limit;
// the same server with a queue building up does.
func TestAdaptiveSizes(t *testing.T) {
	sizes := []int64{4, 40, 300, 2, 900, 12}
	servers := map[string]func(tokens int64) time.Duration{
		"constant latency": func(int64) time.Duration { return 300 * time.Millisecond },
		"decode-bound":     func(n int64) time.Duration { return 150*time.Millisecond + time.Duration(n)*20*time.Millisecond },
	}
	for name, latency := range servers {
		t.Run(name, func(t *testing.T) {
			a := newAdaptive(16)
			a.inFlight = 16
			for range 50 {
				for _, n := range sizes {
					a.adapt(outcome{latency: latency(n), tokens: n})
				}
			}
			if a.limit != 16 {
				t.Fatalf("limit %.2f after replies the server kept up with, want 16", a.limit)
			}
			for i := range 30 { // each reply waits behind more
				n := sizes[i%len(sizes)]
				a.adapt(outcome{latency: latency(n) * time.Duration(i+2), tokens: n})
			}
			if a.limit >= 16 {
				t.Fatalf("limit %.2f while replies queued, want it cut", a.limit)
			}
		})
	}
}

func TestSizeClass(t *testing.T) {
	for _, c := range []struct {
		tokens int64
		class  int
	}{{-1, 0}, {0, 0}, {7, 0}, {8, 1}, {23, 1}, {24, 2}, {55, 2}, {56, 3}, {1 << 40, sizeClasses - 1}} {
		if got := sizeClass(c.tokens); got != c.class {
			t.Errorf("sizeClass(%d) = %d, want %d", c.tokens, got, c.class)
		}
	}
}
