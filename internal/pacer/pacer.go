package pacer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Policy says how a call is tried again. The zero value tries once.
type Policy struct {
	// Attempts is how many tries a call gets in all, the first included
	// (below 1: one).
	Attempts int
	// Base is the wait before the first retry; each later retry doubles it,
	// up to Max. The wait drawn is uniform in [d/2, d], so that callers
	// failing together do not retry together.
	Base, Max time.Duration
	// Backoff, when set, replaces that schedule: the wait before retry n
	// (from 1), without jitter.
	Backoff func(retry int) time.Duration
	// MaxRetryAfter caps the wait a server asks for with Retry-After
	// (0: no cap).
	MaxRetryAfter time.Duration
	// OnRetry, when set, is called before each wait with the retry's
	// number (from 1), the wait and the error that caused it.
	OnRetry func(retry int, wait time.Duration, err error)

	// Now, Sleep and Rand replace the clock, the wait and the jitter's
	// source (uniform in [0, n)); nil: the real ones.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	Rand  func(n int64) int64
}

// retryError is an error the caller marked as worth another try.
type retryError struct {
	err   error
	after time.Time
}

func (e *retryError) Error() string { return e.err.Error() }
func (e *retryError) Unwrap() error { return e.err }

// Retry marks err as worth another try. after, when not zero, is the
// earliest time the server asked to be called again (Retry-After). A nil
// err stays nil.
func Retry(err error, after time.Time) error {
	if err == nil {
		return nil
	}
	return &retryError{err: err, after: after}
}

// ExhaustedError is the error of a call whose every try failed with an
// error marked Retry, when there was more than one try.
type ExhaustedError struct {
	Tries int
	Err   error // the last try's error
}

func (e *ExhaustedError) Error() string { return fmt.Sprintf("after %d tries: %v", e.Tries, e.Err) }
func (e *ExhaustedError) Unwrap() error { return e.Err }

// Call runs try, with try numbers from 0, until it returns nil or an error
// not marked Retry, the tries run out, or ctx ends. It returns nil, the
// unmarked error as it is, an *ExhaustedError wrapping the last error (the
// last error itself when only one try was allowed), or ctx's error when ctx
// ends during a wait.
func (p Policy) Call(ctx context.Context, try func(attempt int) error) error {
	tries := max(p.Attempts, 1)
	for attempt := 0; ; attempt++ {
		err := try(attempt)
		var re *retryError
		if err == nil || !errors.As(err, &re) {
			return err
		}
		if attempt+1 >= tries {
			if tries > 1 {
				return &ExhaustedError{Tries: tries, Err: re.err}
			}
			return re.err
		}
		if err := p.Wait(ctx, attempt+1, re.after, re.err); err != nil {
			return err
		}
	}
}

// Wait sleeps before retry n (from 1): the backoff, or until after when
// that is later (capped by MaxRetryAfter). It calls OnRetry with err first,
// and returns ctx's error if ctx ends sooner. Loops that count their own
// tries (a download resuming while it makes progress) call it directly.
func (p Policy) Wait(ctx context.Context, retry int, after time.Time, err error) error {
	wait := p.Delay(retry, after)
	if p.OnRetry != nil {
		p.OnRetry(retry, wait, err)
	}
	if p.Sleep != nil {
		return p.Sleep(ctx, wait)
	}
	return Sleep(ctx, wait)
}

// Delay is the wait before retry n (from 1) given the server's
// Retry-After time (zero: none): the larger of the backoff and the time
// left until after, the latter capped by MaxRetryAfter.
func (p Policy) Delay(retry int, after time.Time) time.Duration {
	wait := p.backoff(retry)
	if !after.IsZero() {
		ra := after.Sub(p.now())
		if p.MaxRetryAfter > 0 {
			ra = min(ra, p.MaxRetryAfter)
		}
		wait = max(wait, ra)
	}
	return max(wait, 0)
}

// backoff is the wait before retry n (from 1) without Retry-After.
func (p Policy) backoff(retry int) time.Duration {
	if p.Backoff != nil {
		return p.Backoff(retry)
	}
	if p.Base <= 0 {
		return 0
	}
	d := p.Base << min(max(retry-1, 0), 30)
	if p.Max > 0 && d > p.Max || d <= 0 {
		d = p.Max
	}
	half := d / 2
	return half + time.Duration(p.rand(int64(d-half)+1))
}

func (p Policy) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p Policy) rand(n int64) int64 {
	if p.Rand != nil {
		return p.Rand(n)
	}
	return rand.Int64N(n)
}

// Sleep waits d, or until ctx ends, when it returns ctx's error. A d of
// zero or less only checks ctx.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RetryAfter reads a Retry-After header, seconds (fractions allowed) or
// an HTTP date, as a time from now; zero when it is absent or unreadable.
func RetryAfter(h http.Header, now time.Time) time.Time {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return time.Time{}
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s < 1e9 {
		return now.Add(time.Duration(s * float64(time.Second)))
	}
	if t, err := http.ParseTime(v); err == nil {
		return t
	}
	return time.Time{}
}
