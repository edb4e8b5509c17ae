package llm_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"

	"synth/llm"
)

// TestReplyTooLong: a 300 MB reply is cut off at llm.max_reply_bytes, never
// read whole, and fails the call with an error that says so and is not
// retried.
func TestReplyTooLong(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"`))
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		for i := 0; i < 300; i++ {
			if _, err := w.Write(chunk); err != nil {
				return // the client hung up
			}
		}
		w.Write([]byte(`"},"finish_reason":"stop"}]}`))
	}))
	defer srv.Close()
	cfg := one(srv.URL + "/v1")
	cfg.MaxReplyBytes = 1 << 20
	c := newClient(t, cfg)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := c.Chat(context.Background(), llm.Request{Messages: user("write a lot")})
	runtime.ReadMemStats(&after)

	var e *llm.Error
	if !errors.As(err, &e) || !e.ReplyTooLong() || e.Retry() || e.Fatal() {
		t.Fatalf("err %v, want a reply-too-long *llm.Error, neither retried nor fatal", err)
	}
	if calls.Load() != 1 {
		t.Errorf("%d requests, want 1 (not retried)", calls.Load())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("reading the reply allocated %d MiB, want it cut off near the 1 MiB limit", alloc>>20)
	}
}
