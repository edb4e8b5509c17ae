package llm_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/llm"
	"synth/llm/llmtest"
)

// TestBreaker: infrastructure failures in a row pause every request, and
// as many again stop the client with a fatal error that sums them up; a
// server that recovers during the pause loses nothing.
func TestBreaker(t *testing.T) {
	breaker := func(url string) llm.Config {
		cfg := one(url)
		cfg.MaxRetries, cfg.BreakerFailures, cfg.BreakerPause = 100, 3, 50*time.Millisecond
		return cfg
	}
	t.Run("storm stops the run", func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.Status(503, 0))
		c := newClient(t, breaker(srv.URL))
		_, err := c.Chat(context.Background(), llm.Request{Messages: user("x")})
		var e *llm.Error
		if !errors.As(err, &e) || !e.Fatal() || c.Err() == nil {
			t.Fatalf("err = %v (client stopped: %v), want a fatal error", err, c.Err())
		}
		if !strings.Contains(err.Error(), "6 infrastructure failures in a row") || !strings.Contains(err.Error(), "HTTP 503") {
			t.Errorf("error %q does not sum up the failures", err)
		}
		if srv.Count() != 6 {
			t.Errorf("server got %d requests, want 6 (3, a pause, 3)", srv.Count())
		}
		if _, err := c.Chat(context.Background(), llm.Request{Messages: user("y")}); !llm.IsFatal(err) || srv.Count() != 6 {
			t.Errorf("after the stop: %v, %d requests", err, srv.Count())
		}
	})
	t.Run("garbage and refused connections count", func(t *testing.T) {
		for _, url := range []string{llmtest.NewServer(t, llmtest.Raw("<html>")).URL, llmtest.DeadURL(t)} {
			c := newClient(t, breaker(url))
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() { defer wg.Done(); c.Chat(context.Background(), llm.Request{Messages: user("x")}) }()
			}
			wg.Wait()
			if !llm.IsFatal(c.Err()) || !strings.Contains(c.Err().Error(), "in a row") {
				t.Errorf("%s: client not stopped: %v", url, c.Err())
			}
		}
	})
	t.Run("recovery within the pause", func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.Storm(4, 502, llmtest.Say("ok")))
		c := newClient(t, breaker(srv.URL))
		resp, err := c.Chat(context.Background(), llm.Request{Messages: user("x")})
		if err != nil || resp.Message.Content != "ok" || c.Err() != nil {
			t.Fatalf("%+v %v", resp, err)
		}
		// The count starts over after a success.
		if _, err := c.Chat(context.Background(), llm.Request{Messages: user("y")}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("4xx and 429 do not count", func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.TooManyRequests(0), llmtest.TooManyRequests(0), llmtest.TooManyRequests(0),
			llmtest.TooManyRequests(0), llmtest.TooManyRequests(0), llmtest.TooManyRequests(0), llmtest.TooManyRequests(0), llmtest.Say("ok"))
		c := newClient(t, breaker(srv.URL))
		if _, err := c.Chat(context.Background(), llm.Request{Messages: user("x")}); err != nil {
			t.Fatalf("429s tripped the breaker: %v", err)
		}
	})
}
