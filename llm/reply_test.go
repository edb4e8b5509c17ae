package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"synth/llm"
	"synth/llm/llmtest"
)

// TestReplyNotACompletion: a 200 whose body is not a chat completion is an
// infrastructure error, retried a bounded number of times, quoting the
// body's first bytes.
func TestReplyNotACompletion(t *testing.T) {
	tests := []struct {
		name   string
		script llmtest.Script
		inErr  string
	}{
		{"garbage", llmtest.Raw("<html><body>502 Bad Gateway from the proxy</body></html>"), `"<html><body>502 Bad Gateway`},
		{"no choices", llmtest.NoChoices(), `empty list of choices`},
		{"other JSON", llmtest.Raw(`{"status":"ok","detail":"welcome to the web UI"}`), `welcome to the web UI`},
		{"choice without message", llmtest.Raw(`{"choices":[{"index":0,"text":"hi"}]}`), `no message`},
		{"cut off", llmtest.Raw(`{"choices":[{"message":{"role":"assistant","content":"hel`), `not JSON, or cut off`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tc.script)
			cfg := one(srv.URL)
			cfg.MaxRetries = 10
			c := newClient(t, cfg)
			_, err := c.Chat(context.Background(), llm.Request{Messages: user("x")})
			var e *llm.Error
			if !errors.As(err, &e) || !e.Retry() || e.Fatal() || e.ContextLength() {
				t.Fatalf("err = %v, want a retryable infrastructure error", err)
			}
			if !strings.Contains(err.Error(), "not a chat completion") || !strings.Contains(err.Error(), tc.inErr) {
				t.Errorf("error %q does not say it is not a chat completion, quoting %q", err, tc.inErr)
			}
			if n := srv.Count(); n != 3 {
				t.Errorf("server got %d requests, want 3 (the first and two retries, though max_retries is 10)", n)
			}
		})
	}
	t.Run("recovers", func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.NoChoices(), llmtest.Say("ok"))
		resp, err := newClient(t, one(srv.URL)).Chat(context.Background(), llm.Request{Messages: user("x")})
		if err != nil || resp.Message.Content != "ok" {
			t.Fatalf("%+v %v", resp, err)
		}
	})
}

// TestContextOverflowWordings: every engine's way of saying the
// conversation is too long ends that call as a context-length error, which
// neither stops the run nor is retried, and carries no hint about the model
// name or the key.
func TestContextOverflowWordings(t *testing.T) {
	for _, o := range llmtest.Overflows {
		t.Run(o.Engine, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Always(o.Reply()))
			c := newClient(t, one(srv.URL))
			_, err := c.Chat(context.Background(), llm.Request{Messages: user("x")})
			var e *llm.Error
			if !errors.As(err, &e) || !e.ContextLength() || e.Retry() || e.Fatal() || c.Err() != nil {
				t.Fatalf("err = %v (run stopped: %v), want a context-length error that ends the call only", err, c.Err())
			}
			if srv.Count() != 1 {
				t.Errorf("server got %d requests, want 1", srv.Count())
			}
			for _, wrong := range []string{"model name", "API key", "base_url"} {
				if strings.Contains(err.Error(), wrong) {
					t.Errorf("error %q gives a wrong hint about the %s", err, wrong)
				}
			}
		})
	}
}
