package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestRetryAfter checks that Do waits as long as a 429's Retry-After asks
// (seconds or an HTTP date), capped by MaxWait. A wait of an hour cannot
// end within the context's deadline, so the call fails after one request;
// a wait that is ignored or capped lets the second request succeed.
func TestRetryAfter(t *testing.T) {
	inHour := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	cases := []struct {
		name       string
		retryAfter string
		maxWait    time.Duration
		requests   int
		waited     bool // the call ran into the deadline
	}{
		{"seconds are waited", "3600", time.Hour, 1, true},
		{"an HTTP date is waited", inHour, time.Hour, 1, true},
		{"zero is not waited", "0", time.Hour, 2, false},
		{"MaxWait caps the wait", "3600", time.Millisecond, 2, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n++
				if n == 1 {
					w.Header().Set("Retry-After", tc.retryAfter)
					w.WriteHeader(http.StatusTooManyRequests)
				}
			}))
			defer srv.Close()
			c := New(0, 3)
			c.Backoff = func(int) time.Duration { return 0 }
			c.MaxWait = tc.maxWait
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			resp, err := c.Get(ctx, srv.URL)
			if err == nil {
				resp.Body.Close()
			}
			if got := errors.Is(err, context.DeadlineExceeded); got != tc.waited {
				t.Errorf("err = %v; waited %v, want %v", err, got, tc.waited)
			}
			if n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
		})
	}
}
