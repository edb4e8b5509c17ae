package llm

import (
	"math"
	"time"
)

// adaptive is an endpoint's concurrency limit, adapted as TCP and
// Netflix's concurrency-limits adapt theirs. It starts at the configured
// concurrency (max) and never exceeds it. A timeout or a 429 halves it. A
// reply slower per token than twice the best seen lately (and slower than
// minQueueing) means requests queue at the server, so the limit shrinks by that gradient (at most once
// per limit's worth of replies, since the replies of requests sent before a
// cut still show the old queue). While replies come near the best speed
// (or within minQueueing) and the limit is used up, it grows by about one
// per limit's worth of replies.
type adaptive struct {
	max      int
	limit    float64
	inFlight int
	baseline float64 // seconds per token of the best recent reply; 0: none yet
	cooldown int     // replies to ignore for decreases after a cut
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

// Thresholds of adapt: queueing is a reply per token twice as slow as the
// baseline; healthy is at most 1.5 times; the baseline ages by 0.5% a reply
// so that a server that got slower for good (longer prompts, another load)
// sets a new one.
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
	sample := o.latency.Seconds() / float64(o.tokens+8)
	if a.baseline == 0 || sample < a.baseline {
		a.baseline = sample
	} else {
		a.baseline *= baselineAge
	}
	ratio := sample / a.baseline
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
