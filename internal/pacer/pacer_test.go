package pacer

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fixed returns a Rand that always draws the lowest (lo) or highest value.
func fixed(high bool) func(int64) int64 {
	return func(n int64) int64 {
		if high {
			return n - 1
		}
		return 0
	}
}

func TestDelayBounds(t *testing.T) {
	cases := []struct {
		name  string
		retry int
		high  bool
		want  time.Duration
	}{
		{"first retry, low draw", 1, false, 50 * time.Millisecond},
		{"first retry, high draw", 1, true, 100 * time.Millisecond},
		{"third retry doubles twice, low", 3, false, 200 * time.Millisecond},
		{"third retry doubles twice, high", 3, true, 400 * time.Millisecond},
		{"capped at Max, low", 10, false, 500 * time.Millisecond},
		{"capped at Max, high", 10, true, time.Second},
		{"a huge retry number stays capped", 1000, true, time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := Policy{Base: 100 * time.Millisecond, Max: time.Second, Rand: fixed(tc.high), Now: func() time.Time { return epoch }}
			if got := p.Delay(tc.retry, time.Time{}); got != tc.want {
				t.Errorf("Delay(%d) = %v, want %v", tc.retry, got, tc.want)
			}
		})
	}
}

func TestJitterWithinBounds(t *testing.T) {
	p := Policy{Base: time.Second, Max: time.Minute}
	seen := map[time.Duration]bool{}
	for range 2000 {
		d := p.Delay(4, time.Time{}) // 8 s before jitter
		if d < 4*time.Second || d > 8*time.Second {
			t.Fatalf("Delay(4) = %v, outside [4s, 8s]", d)
		}
		seen[d] = true
	}
	if len(seen) < 100 {
		t.Errorf("only %d distinct waits in 2000 draws: no jitter", len(seen))
	}
}

func TestBackoffSchedule(t *testing.T) {
	p := Policy{Base: time.Hour, Backoff: func(n int) time.Duration { return time.Duration(n) * time.Second }}
	for n := 1; n <= 3; n++ {
		if got := p.Delay(n, time.Time{}); got != time.Duration(n)*time.Second {
			t.Errorf("Delay(%d) = %v, want %ds", n, got, n)
		}
	}
}

func TestRetryAfterWinsWhenLarger(t *testing.T) {
	now := func() time.Time { return epoch }
	cases := []struct {
		name  string
		after time.Time
		cap   time.Duration
		want  time.Duration
	}{
		{"larger Retry-After wins", epoch.Add(30 * time.Second), 0, 30 * time.Second},
		{"smaller Retry-After loses to the backoff", epoch.Add(time.Second), 0, 4 * time.Second},
		{"Retry-After in the past", epoch.Add(-time.Minute), 0, 4 * time.Second},
		{"Retry-After capped", epoch.Add(time.Hour), 2 * time.Minute, 2 * time.Minute},
		{"cap below the backoff keeps the backoff", epoch.Add(time.Hour), time.Second, 4 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := Policy{Base: 4 * time.Second, Max: time.Minute, Rand: fixed(true), Now: now, MaxRetryAfter: tc.cap}
			if got := p.Delay(1, tc.after); got != tc.want {
				t.Errorf("Delay = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	cases := []struct {
		header string
		want   time.Time
	}{
		{"", time.Time{}},
		{"7", epoch.Add(7 * time.Second)},
		{" 1.5 ", epoch.Add(1500 * time.Millisecond)},
		{"-3", time.Time{}},
		{"soon", time.Time{}},
		{epoch.Add(time.Minute).Format(http.TimeFormat), epoch.Add(time.Minute)},
	}
	for _, tc := range cases {
		h := http.Header{}
		if tc.header != "" {
			h.Set("Retry-After", tc.header)
		}
		if got := RetryAfter(h, epoch); !got.Equal(tc.want) {
			t.Errorf("RetryAfter(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

// recorder is a Policy whose waits are recorded instead of slept.
func recorder(attempts int, waits *[]time.Duration) Policy {
	return Policy{Attempts: attempts, Base: time.Second, Max: time.Minute, Rand: fixed(true), Now: func() time.Time { return epoch },
		Sleep: func(ctx context.Context, d time.Duration) error { *waits = append(*waits, d); return ctx.Err() }}
}

func TestCallAttempts(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		name     string
		attempts int
		fail     int  // tries that fail before one succeeds
		retry    bool // failures are marked Retry
		tries    int
		waits    []time.Duration
		err      string
	}{
		{"success at once", 3, 0, true, 1, nil, ""},
		{"two retries then success", 3, 2, true, 3, []time.Duration{time.Second, 2 * time.Second}, ""},
		{"retries run out", 3, 9, true, 3, []time.Duration{time.Second, 2 * time.Second}, "after 3 tries: boom"},
		{"one try only", 1, 9, true, 1, nil, "boom"},
		{"zero attempts is one try", 0, 9, true, 1, nil, "boom"},
		{"an unmarked error stops at once", 5, 9, false, 1, nil, "boom"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var waits []time.Duration
			tries := 0
			err := recorder(tc.attempts, &waits).Call(context.Background(), func(attempt int) error {
				if attempt != tries {
					t.Errorf("attempt %d, want %d", attempt, tries)
				}
				tries++
				if tries > tc.fail {
					return nil
				}
				if tc.retry {
					return Retry(boom, time.Time{})
				}
				return boom
			})
			if tries != tc.tries {
				t.Errorf("%d tries, want %d", tries, tc.tries)
			}
			if len(waits) != len(tc.waits) {
				t.Fatalf("waits %v, want %v", waits, tc.waits)
			}
			for i := range waits {
				if waits[i] != tc.waits[i] {
					t.Errorf("wait %d = %v, want %v", i, waits[i], tc.waits[i])
				}
			}
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || err.Error() != tc.err || !errors.Is(err, boom) {
				t.Errorf("err = %v, want %q wrapping boom", err, tc.err)
			}
		})
	}
}

func TestCallHonoursRetryAfter(t *testing.T) {
	var waits []time.Duration
	var got []int
	p := recorder(2, &waits)
	p.OnRetry = func(n int, d time.Duration, err error) { got = append(got, n) }
	p.Call(context.Background(), func(int) error { return Retry(errors.New("429"), epoch.Add(42*time.Second)) })
	if len(waits) != 1 || waits[0] != 42*time.Second {
		t.Errorf("waits %v, want [42s]", waits)
	}
	if len(got) != 1 || got[0] != 1 {
		t.Errorf("OnRetry saw %v, want [1]", got)
	}
}

func TestCallCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tries := 0
	p := Policy{Attempts: 5, Base: time.Hour, Max: time.Hour}
	err := p.Call(ctx, func(int) error {
		tries++
		cancel()
		return Retry(errors.New("503"), time.Time{})
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want canceled", err)
	}
	if tries != 1 {
		t.Errorf("%d tries after the cancel, want 1", tries)
	}
}

func TestSleepCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep = %v, want canceled", err)
	}
	if err := Sleep(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep(0) = %v, want canceled", err)
	}
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("Sleep = %v", err)
	}
}

func TestRetryNil(t *testing.T) {
	if Retry(nil, epoch) != nil {
		t.Error("Retry(nil) is not nil")
	}
}
