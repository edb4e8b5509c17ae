package llm

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"synth/internal/pacer"
)

// Breaker defaults: after this many infrastructure failures in a row the
// client pauses every request, and after as many again it stops the run.
const (
	DefaultBreakerFailures = 12
	DefaultBreakerPause    = 30 * time.Second
)

// breaker is a client's circuit breaker. Infrastructure failures (refused
// or dropped connections, timeouts, 5xx, replies that are not chat
// completions) are counted in a row across every request; a success resets
// the count. At the threshold every request waits out a pause, so that a
// server restarting or a network glitch costs no rollout; if the failures go
// on to the threshold once more, the breaker stops the client: every call
// then fails with a fatal error summing up what happened, and the run stops
// with a non-zero exit.
type breaker struct {
	threshold int
	pause     time.Duration
	log       *slog.Logger

	mu      sync.Mutex
	row     int       // failures in a row
	total   int       // failures since the last success
	since   time.Time // first failure of the row
	paused  bool      // a pause was taken since the last success
	until   time.Time // the end of the pause under way
	last    *Error
	stopped *Error
}

// wait blocks while a pause is under way, and returns the stop error once
// the breaker has stopped.
func (b *breaker) wait(ctx context.Context) error {
	b.mu.Lock()
	stopped, d := b.stopped, time.Until(b.until)
	b.mu.Unlock()
	if stopped != nil {
		return stopped
	}
	if d <= 0 {
		return nil
	}
	if err := pacer.Sleep(ctx, d); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped != nil {
		return b.stopped
	}
	return nil
}

func (b *breaker) success() {
	b.mu.Lock()
	b.row, b.total, b.paused = 0, 0, false
	b.mu.Unlock()
}

// failure counts an infrastructure failure and returns the stop error if
// it is the one that stops the client.
func (b *breaker) failure(e *Error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped != nil {
		return b.stopped
	}
	if b.total == 0 {
		b.since = time.Now()
	}
	b.row++
	b.total++
	b.last = e
	if b.row < b.threshold || time.Now().Before(b.until) {
		return nil
	}
	b.row = 0
	if !b.paused {
		b.paused = true
		b.until = time.Now().Add(b.pause)
		b.log.Warn("llm endpoints failing: pausing every request", "failures_in_a_row", b.threshold, "pause", b.pause, "last", e)
		return nil
	}
	b.stopped = &Error{Endpoint: e.Endpoint, Status: e.Status, Err: e, fatal: true,
		Msg: fmt.Sprintf("%d infrastructure failures in a row over %s, a pause of %s included; the last: %s",
			b.total, time.Since(b.since).Round(time.Second), b.pause, e.Msg),
		Fix: "check the server and its logs; rollouts cut short are not recorded, so the same command redoes them"}
	return b.stopped
}

// infra reports whether e counts against the breaker: a failure of the
// server or the way to it, not a refusal of this request (4xx) nor a rate
// limit (429), which backs off on its own.
func infra(e *Error) bool {
	return (e.retry || e.timeout) && e.Status != 429 && !e.contextLength
}
