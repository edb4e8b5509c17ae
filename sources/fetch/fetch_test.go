package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// script answers requests with the given statuses in turn, then 200 "ok".
func script(t *testing.T, codes ...int) (*httptest.Server, *int) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if r.Header.Get("X-Test") != "yes" {
			t.Errorf("header not sent")
		}
		if n <= len(codes) {
			if codes[n-1] == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "0")
			}
			w.WriteHeader(codes[n-1])
			io.WriteString(w, "slow down")
			return
		}
		io.WriteString(w, "ok")
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func client(retries int) *Client {
	c := New(0, retries)
	c.Backoff = func(int) time.Duration { return 0 }
	c.Header.Set("X-Test", "yes")
	return c
}

func TestGet(t *testing.T) {
	cases := []struct {
		name     string
		codes    []int
		retries  int
		requests int
		errText  string
		fatal    bool
	}{
		{"429 then 200", []int{429}, 3, 2, "", false},
		{"500 three times then 200", []int{500, 500, 500}, 3, 4, "", false},
		{"500 beyond the retries", []int{500, 500, 500}, 2, 3, "after 3 tries", false},
		{"401 is not retried", []int{401}, 3, 1, "401 Unauthorized", true},
		{"404 is not retried", []int{404}, 3, 1, "404", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, n := script(t, tc.codes...)
			resp, err := client(tc.retries).Get(context.Background(), srv.URL+"/x?key=secret")
			if *n != tc.requests {
				t.Errorf("%d requests, want %d", *n, tc.requests)
			}
			if tc.errText == "" {
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if string(b) != "ok" {
					t.Errorf("body %q", b)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.errText) {
				t.Fatalf("err = %v, want %q", err, tc.errText)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("error leaks the key: %v", err)
			}
			var se *StatusError
			if !errors.As(err, &se) || se.Fatal() != tc.fatal {
				t.Errorf("error %v: fatal %v, want %v", err, se != nil && se.Fatal(), tc.fatal)
			}
		})
	}
}

func TestGetCancel(t *testing.T) {
	srv, _ := script(t, 500, 500, 500, 500)
	c := client(3)
	c.Backoff = func(int) time.Duration { return time.Hour }
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, err := c.Get(ctx, srv.URL); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want canceled", err)
	}
}
