package llm_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"synth/llm"
	"synth/llm/llmtest"
)

// TestOneSlotServer: against a server that computes one reply at a time,
// the client backs its concurrency off from the configured 8, sends no
// request twice, and the server computes nothing for a client that has
// gone: all its work is replies delivered, so the throughput is the
// server's.
func TestOneSlotServer(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Say("ok"))
	srv.SetSlots(1)
	srv.SetLatency(40 * time.Millisecond)
	cfg := one(srv.URL)
	cfg.Endpoints[0].Concurrency = 8
	c := newClient(t, cfg)
	const n = 48
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Chat(context.Background(), llm.Request{Messages: user(fmt.Sprint("request ", i))}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	seen := map[string]bool{}
	for _, call := range srv.Calls() {
		q := call.Query()
		if seen[q] {
			t.Errorf("%q was sent twice", q)
		}
		seen[q] = true
	}
	computed, wasted, _ := srv.Load()
	if len(seen) != n || computed != n || wasted != 0 {
		t.Errorf("%d distinct requests, %d replies computed, %d for nobody; want %d, %d, 0", len(seen), computed, wasted, n, n)
	}
	if lim := c.Limits("")[srv.URL]; lim >= 6 {
		t.Errorf("concurrency limit %.1f after %d replies queued one behind another, want it backed off from 8", lim, n)
	}
}

// TestTimeoutNotResent: a request that times out is not sent again (the
// server may still be computing it), and the endpoint's limit is halved.
func TestTimeoutNotResent(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Say("late"))
	srv.SetSlots(1)
	srv.SetLatency(300 * time.Millisecond)
	cfg := one(srv.URL)
	cfg.Timeout, cfg.MaxRetries = 50*time.Millisecond, 5
	cfg.Endpoints[0].Concurrency = 4
	c := newClient(t, cfg)
	_, err := c.Chat(context.Background(), llm.Request{Messages: user("x")})
	if err == nil || llm.IsRetryable(err) || llm.IsFatal(err) {
		t.Fatalf("err = %v, want a timeout that is neither retried nor fatal", err)
	}
	if srv.Count() != 1 {
		t.Errorf("server got %d requests, want 1", srv.Count())
	}
	if lim := c.Limits("")[srv.URL]; lim != 2 {
		t.Errorf("limit %.1f after a timeout, want 2", lim)
	}
}

// TestLimitGrowsBack: once the server keeps up again, the limit grows back
// to the configured concurrency and no further.
func TestLimitGrowsBack(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.TooManyRequests(0), llmtest.TooManyRequests(0), llmtest.Say("ok"))
	cfg := one(srv.URL)
	cfg.Endpoints[0].Concurrency = 4
	c := newClient(t, cfg)
	if _, err := c.Chat(context.Background(), llm.Request{Messages: user("x")}); err != nil {
		t.Fatal(err)
	}
	if lim := c.Limits("")[srv.URL]; lim != 2 {
		t.Fatalf("limit %.1f after 429s, want 2", lim)
	}
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Chat(context.Background(), llm.Request{Messages: user(fmt.Sprint(i))})
		}()
	}
	wg.Wait()
	if lim := c.Limits("")[srv.URL]; lim != 4 {
		t.Errorf("limit %.2f after 200 quick replies, want back at 4", lim)
	}
}
