package llm

import (
	"math"
	"math/bits"
	"time"
)

// adaptive is an endpoint's concurrency limit, adapted as TCP and
// Netflix's concurrency-limits adapt theirs. It starts at the configured
// concurrency (max) and never exceeds it. A timeout or a 429 halves it. A
// reply more than twice as slow as the best recent reply of its size
// (and slower than minQueueing) means requests queue at the server, so the
// limit shrinks by that gradient (at most once per limit's worth of
// replies, since the replies of requests sent before a cut still show the
// old queue). While replies come near the best speed (or within
// minQueueing) and the limit is used up, it grows by about one per limit's
// worth of replies.
//
// Replies are compared only with replies of their size class (completion
// tokens within a factor of two), as latency / sqrt(tokens): a server
// whose latency is all overhead and one whose latency is all decoding then
// both vary by at most √2 within a class, well under the queueing ratio.
// Comparing per token across sizes took a short final answer, as slow per
// token as any constant-latency reply is, for a queue.
type adaptive struct {
	max      int
	limit    float64
	inFlight int
	baseline [sizeClasses]float64 // per size class, the best recent sample; 0: none yet
	cooldown int                  // replies to ignore for decreases after a cut
}

// sizeClasses bounds sizeClass: a reply of 2^30 tokens or more shares the
// last class.
const sizeClasses = 32

// sizeClass is a reply's class by completion tokens: 0–7, 8–23, 24–55, …
// (tokens+8 within a power of two).
func sizeClass(tokens int64) int {
	return min(bits.Len64(uint64(max(tokens, 0))+8)-4, sizeClasses-1)
}

// outcome is how one request went, for adapt.
type outcome struct {
	latency    time.Duration // of the attempt that answered; 0: none (cached, failed)
	tokens     int64         // completion tokens of the reply
	overloaded bool          // the server timed out or answered 429
}

func newAdaptive(max int) adaptive { return adaptive{max: max, limit: float64(max)} }

func (a *adaptive) allowed() int { return max(1, int(a.limit)) }

func (a *adaptive) load() float64 { return float64(a.inFlight) / a.limit }

// Thresholds of adapt: queueing is a reply twice as slow as the baseline of
// its size class; healthy is at most 1.5 times; a baseline ages by 0.1% a
// reply of its class so that a server that got slower for good (longer
// prompts, another load) sets a new one.
const (
	queueRatio   = 2.0
	healthyRatio = 1.5
	baselineAge  = 1.001
	// minQueueing: replies quicker than this are never taken for queueing;
	// below it a scheduler's jitter would pass for a queue.
	minQueueing = 100 * time.Millisecond
)

func (a *adaptive) adapt(o outcome) {
	if a.cooldown > 0 {
		a.cooldown--
	}
	if o.overloaded {
		a.cut(0.5)
		return
	}
	if o.latency <= 0 {
		return
	}
	sample := o.latency.Seconds() / math.Sqrt(float64(max(o.tokens, 0)+8))
	base := &a.baseline[sizeClass(o.tokens)]
	if *base == 0 || sample < *base {
		*base = sample
	} else {
		*base *= baselineAge
	}
	ratio := sample / *base
	switch {
	case ratio > queueRatio && a.cooldown == 0 && o.latency >= minQueueing:
		a.cut(math.Max(0.5, queueRatio/ratio))
	case (ratio <= healthyRatio || o.latency < minQueueing) && a.inFlight+1 >= a.allowed() && a.limit < float64(a.max):
		a.limit = math.Min(float64(a.max), a.limit+1/a.limit)
	}
}

func (a *adaptive) cut(f float64) {
	a.limit = math.Max(1, a.limit*f)
	a.cooldown = a.allowed() + a.inFlight
}
