package runner

import (
	"context"
	"errors"
	"testing"
	"time"

	"synth/internal/pacer"
)

// TestRetry: a try is made again while it asks, up to the policy's tries,
// and the last result stands; a try's error ends the tries, even one
// marked for pacer; ctx ending during a wait abandons the job.
func TestRetry(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name     string
		retries  int
		againTil int   // tries up to this one ask for another
		errAt    int   // the try that fails (0: none)
		err      error // its error
		tries    int
		want     int
		wantErr  error
	}{
		{"first try stands", 2, 0, 0, nil, 1, 1, nil},
		{"again until it holds", 2, 2, 0, nil, 3, 3, nil},
		{"tries run out: the last result", 2, 9, 0, nil, 3, 3, nil},
		{"no retries", 0, 9, 0, nil, 1, 1, nil},
		{"negative retries are none", -1, 9, 0, nil, 1, 1, nil},
		{"an error ends it", 2, 9, 2, boom, 2, 2, boom},
		{"a pacer-marked error ends it too", 2, 9, 1, pacer.Retry(boom, time.Time{}), 1, 1, boom},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tries := 0
			got, err := Retry(context.Background(), Tries(tc.retries), func(attempt int) (int, bool, error) {
				tries++
				if attempt != tries {
					t.Errorf("attempt %d on try %d", attempt, tries)
				}
				if attempt == tc.errAt {
					return attempt, false, tc.err
				}
				return attempt, attempt <= tc.againTil, nil
			})
			if tries != tc.tries || got != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Errorf("%d tries, result %d, error %v; want %d, %d, %v", tries, got, err, tc.tries, tc.want, tc.wantErr)
			}
		})
	}

	ctx, cancel := context.WithCancel(context.Background())
	p := Tries(3)
	p.Sleep = func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }
	got, err := Retry(ctx, p, func(attempt int) (int, bool, error) { return attempt, true, nil })
	if !errors.Is(err, ErrAbandoned) || got != 1 {
		t.Errorf("result %d, error %v; want the first try's, abandoned", got, err)
	}
}
