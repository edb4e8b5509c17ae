package runner

import (
	"context"
	"errors"
	"time"

	"synth/internal/pacer"
)

// errAgain marks a try whose result asks for another.
var errAgain = errors.New("try again")

// Retry runs try, with tries numbered from 1, through policy (the
// project's one retry policy, internal/pacer: its tries and the wait
// between them) while try says again and returns no error. It returns the
// last try's value and error: a try whose result still asks for another
// when the tries run out is that result, not an error. ctx ending during a
// wait is ErrAbandoned, as when it ends a try.
func Retry[T any](ctx context.Context, policy pacer.Policy, try func(attempt int) (v T, again bool, err error)) (T, error) {
	var last T
	var lastErr error
	err := policy.Call(ctx, func(attempt int) error {
		v, again, err := try(attempt + 1)
		last, lastErr = v, err
		switch {
		case err != nil:
			return errStop{err}
		case again:
			return pacer.Retry(errAgain, time.Time{})
		}
		return nil
	})
	var stop errStop
	switch {
	case err == nil, errors.Is(err, errAgain):
		return last, nil
	case errors.As(err, &stop):
		return last, lastErr
	}
	return last, ErrAbandoned // ctx ended during a wait
}

// errStop carries a try's own error through pacer.Call untouched, so that
// an error try marks for pacer itself is never mistaken for a retry.
type errStop struct{ err error }

func (e errStop) Error() string { return e.err.Error() }

// Tries is the policy of a job retried retries times at once, without a
// wait: an infrastructure failure (a sandbox that would not start, a
// verifier that could not run) is not a server to wait for.
func Tries(retries int) pacer.Policy { return pacer.Policy{Attempts: max(retries, 0) + 1} }
