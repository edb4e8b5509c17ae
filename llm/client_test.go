package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"synth/llm"
	"synth/llm/llmtest"
	"synth/schemas"
)

func newClient(t *testing.T, cfg llm.Config, opts ...llm.Option) *llm.Client {
	t.Helper()
	opts = append([]llm.Option{llm.WithBackoff(5*time.Millisecond, 20*time.Millisecond),
		llm.WithGetenv(func(k string) string {
			if k == "TEST_KEY" {
				return "sk-secret-123"
			}
			return ""
		})}, opts...)
	c, err := llm.New(cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func one(url string) llm.Config {
	return llm.Config{Endpoints: []llm.Endpoint{{BaseURL: url, Model: "m", KeyEnv: "TEST_KEY"}}}
}

func user(s string) []schemas.Message {
	return []schemas.Message{{Role: schemas.RoleUser, Content: s}}
}

func ptr[T any](v T) *T { return &v }

func TestChatBodyFields(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Say("hi"))
	cfg := one(srv.URL)
	cfg.Extra = map[string]any{"top_k": 20, "repetition_penalty": 1.05}
	cfg.Endpoints[0].Extra = map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}
	c := newClient(t, cfg)
	resp, err := c.Chat(context.Background(), llm.Request{
		Messages:    user("hello"),
		Temperature: ptr(0.0),
		Seed:        ptr(7),
		N:           2,
		MaxTokens:   64,
		Extra:       map[string]any{"top_k": 5, "min_p": 0.1},
		Tools:       []llm.Tool{{Name: "execute_python", Parameters: json.RawMessage(`{"type":"object"}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "hi" || resp.Endpoint != srv.URL || resp.Cached {
		t.Errorf("response = %+v", resp)
	}
	calls := srv.Calls()
	if len(calls) != 1 {
		t.Fatalf("server got %d requests, want 1", len(calls))
	}
	b := calls[0].Body
	want := map[string]any{"temperature": 0.0, "top_k": 5.0, "repetition_penalty": 1.05, "min_p": 0.1, "seed": 7.0, "n": 2.0, "model": "m", "max_tokens": 64.0}
	for k, v := range want {
		if b[k] != v {
			t.Errorf("body[%q] = %v, want %v (body %s)", k, b[k], v, calls[0].Raw)
		}
	}
	if kw, _ := b["chat_template_kwargs"].(map[string]any); kw["enable_thinking"] != false {
		t.Errorf("chat_template_kwargs = %v", b["chat_template_kwargs"])
	}
	if _, ok := b["tools"]; !ok {
		t.Errorf("tools missing: %s", calls[0].Raw)
	}
	if got := calls[0].Header.Get("Authorization"); got != "Bearer sk-secret-123" {
		t.Errorf("Authorization = %q", got)
	}
	if u := resp.Usage; u.PromptTokens == 0 || u.CompletionTokens == 0 {
		t.Errorf("usage = %+v", u)
	}
}

func TestChatNoKey(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Say("hi"))
	cfg := one(srv.URL)
	cfg.Endpoints[0].KeyEnv = "UNSET_KEY"
	if _, err := newClient(t, cfg).Chat(context.Background(), llm.Request{Messages: user("x")}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Calls()[0].Header.Get("Authorization"); got != "" {
		t.Errorf("Authorization = %q, want none", got)
	}
}

func TestChatRetries(t *testing.T) {
	tests := []struct {
		name     string
		scripts  []llmtest.Script
		timeout  time.Duration
		retries  int
		requests int
		wantErr  bool
		retry    bool
		fatal    bool
		inErr    []string
	}{
		{name: "429 then ok", scripts: []llmtest.Script{llmtest.TooManyRequests(time.Second), llmtest.Say("ok")}, requests: 2},
		{name: "500 then ok", scripts: []llmtest.Script{llmtest.Status(500, 0), llmtest.Status(503, 0), llmtest.Say("ok")}, requests: 3},
		{name: "dropped then ok", scripts: []llmtest.Script{llmtest.Drop(), llmtest.Say("ok")}, requests: 2},
		{name: "malformed json then ok", scripts: []llmtest.Script{llmtest.Always(llmtest.Reply{Body: `{"choices":[`}), llmtest.Say("ok")}, requests: 2},
		{name: "slow past timeout", scripts: []llmtest.Script{llmtest.Slow(5*time.Second, llmtest.Say("late"))},
			timeout: 100 * time.Millisecond, retries: 2, requests: 1, wantErr: true, inErr: []string{"no reply within", "not sent again"}},
		{name: "500 forever", scripts: []llmtest.Script{llmtest.Status(502, 0)}, retries: 3, requests: 4, wantErr: true, retry: true, inErr: []string{"HTTP 502"}},
		{name: "401 stops", scripts: []llmtest.Script{llmtest.Status(401, 0)}, requests: 1, wantErr: true, fatal: true, inErr: []string{"$TEST_KEY", "HTTP 401"}},
		{name: "403 stops", scripts: []llmtest.Script{llmtest.Status(403, 0)}, requests: 1, wantErr: true, fatal: true, inErr: []string{"$TEST_KEY"}},
		{name: "404 stops", scripts: []llmtest.Script{llmtest.Status(404, 0)}, requests: 1, wantErr: true, fatal: true, inErr: []string{"base_url", `"m"`}},
		{name: "400 stops", scripts: []llmtest.Script{llmtest.Status(400, 0)}, requests: 1, wantErr: true, fatal: true, inErr: []string{"extra body fields"}},
		{name: "400 context length ends one call", scripts: []llmtest.Script{llmtest.Always(llmtest.Reply{Status: 400, Content: "This model's maximum context length is 8192 tokens"})},
			requests: 1, wantErr: true, inErr: []string{"max_turns"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tc.scripts...)
			cfg := one(srv.URL)
			cfg.Timeout, cfg.MaxRetries = tc.timeout, tc.retries
			c := newClient(t, cfg)
			resp, err := c.Chat(context.Background(), llm.Request{Messages: user("x")})
			if n := srv.Count(); n != tc.requests {
				t.Errorf("server got %d requests, want %d", n, tc.requests)
			}
			if !tc.wantErr {
				if err != nil || resp.Message.Content != "ok" || resp.Attempts != tc.requests {
					t.Fatalf("got %+v, %v", resp, err)
				}
				if c.Totals().Retries != int64(tc.requests-1) {
					t.Errorf("totals = %+v", c.Totals())
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not *llm.Error", err, err)
			}
			if (c.Err() != nil) != tc.fatal {
				t.Errorf("Err() = %v after %v", c.Err(), err)
			}
			if e.Retry() != tc.retry || e.Fatal() != tc.fatal || llm.IsFatal(err) != tc.fatal || llm.IsBudget(err) {
				t.Errorf("retry %v fatal %v, want %v %v: %v", e.Retry(), e.Fatal(), tc.retry, tc.fatal, err)
			}
			for _, s := range append(tc.inErr, srv.URL) {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			if strings.Contains(err.Error(), "sk-secret") {
				t.Errorf("error leaks the key: %v", err)
			}
		})
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.TooManyRequests(time.Second), llmtest.Say("ok"))
	c := newClient(t, one(srv.URL))
	start := time.Now()
	if _, err := c.Chat(context.Background(), llm.Request{Messages: user("x")}); err != nil {
		t.Fatal(err)
	}
	// Backoff alone is at most 20ms here; only Retry-After explains a wait
	// of most of a second. (A lower bound, so a slow machine cannot fail it.)
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("retried after %v, before Retry-After: 1", d)
	}
}

func TestChatCancel(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Slow(10*time.Second, llmtest.Say("late")))
	c := newClient(t, one(srv.URL))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err := c.Chat(ctx, llm.Request{Messages: user("x")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestCache(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Say("cached answer"))
	dir := t.TempDir()
	req := llm.Request{Messages: user("same"), Temperature: ptr(0.7), CacheSalt: "task-1/0"}
	for run := 0; run < 2; run++ {
		c := newClient(t, one(srv.URL), llm.WithCache(dir))
		resp, err := c.Chat(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Cached != (run == 1) || resp.Message.Content != "cached answer" {
			t.Errorf("run %d: %+v", run, resp)
		}
		if run == 1 && (resp.Usage.CostUSD != 0 || c.Totals().CacheHits != 1) {
			t.Errorf("run %d: usage %+v totals %+v", run, resp.Usage, c.Totals())
		}
	}
	if n := srv.Count(); n != 1 {
		t.Errorf("server got %d requests, want 1", n)
	}
	c := newClient(t, one(srv.URL), llm.WithCache(dir))
	req.CacheSalt = "task-1/1"
	if resp, _ := c.Chat(context.Background(), req); resp.Cached {
		t.Error("another sample was answered from the cache")
	}
	req.Temperature = ptr(0.0)
	if resp, _ := c.Chat(context.Background(), req); resp.Cached {
		t.Error("another temperature was answered from the cache")
	}
	if n := srv.Count(); n != 3 {
		t.Errorf("server got %d requests, want 3", n)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "sk-secret") {
				t.Errorf("%s holds the key", p)
			}
		}
		return nil
	})
}

func TestBudget(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Always(llmtest.Reply{Content: "a", PromptTokens: 1000, CompletionTokens: 1000}))
	cfg := one(srv.URL)
	cfg.Prices = map[string]llm.Price{"m": {Input: 1, Output: 2}} // $ per million tokens
	cfg.MaxCostUSD = 0.005                                        // two calls at $0.003 each
	c := newClient(t, cfg)
	var err error
	calls := 0
	for ; calls < 10 && err == nil; calls++ {
		var resp llm.Response
		resp, err = c.Chat(context.Background(), llm.Request{Messages: user("x")})
		if err == nil && resp.Usage.CostUSD != 0.003 {
			t.Errorf("cost = %v, want 0.003", resp.Usage.CostUSD)
		}
	}
	if !llm.IsBudget(err) || !llm.IsFatal(err) || llm.IsRetryable(err) {
		t.Fatalf("err = %v, want a budget error", err)
	}
	if !llm.IsBudget(c.Err()) {
		t.Errorf("Err() = %v, want the budget error", c.Err())
	}
	if !strings.Contains(err.Error(), "max_cost_usd") {
		t.Errorf("error %q does not name the key", err)
	}
	if n := srv.Count(); n != 2 {
		t.Errorf("server got %d requests, want 2", n)
	}
	if b := c.Budget(); !b.Reached || b.SpentUSD < 0.005 {
		t.Errorf("budget = %+v", b)
	}

	cfg.MaxCostUSD = 0
	cfg.MaxTokens = 3000
	c = newClient(t, cfg, llm.WithSpent(0, 2500))
	if _, err := c.Chat(context.Background(), llm.Request{Messages: user("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), llm.Request{Messages: user("x")}); !llm.IsBudget(err) || !strings.Contains(err.Error(), "max_tokens") {
		t.Errorf("err = %v, want max_tokens budget", err)
	}
}

func TestLoadBalanceAndConcurrency(t *testing.T) {
	var inflight, peak [2]atomic.Int32
	script := func(i int) llmtest.Script {
		return func(llmtest.Call) llmtest.Reply {
			n := inflight[i].Add(1)
			for {
				p := peak[i].Load()
				if n <= p || peak[i].CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(20 * time.Millisecond)
			inflight[i].Add(-1)
			return llmtest.Reply{Content: "ok"}
		}
	}
	a := llmtest.NewServer(t, script(0))
	b := llmtest.NewServer(t, script(1))
	cfg := llm.Config{Endpoints: []llm.Endpoint{{BaseURL: a.URL, Model: "m", Concurrency: 2}, {BaseURL: b.URL, Model: "m", Concurrency: 3}}}
	c := newClient(t, cfg)
	if c.Slots("") != 5 || len(c.Endpoints("m")) != 2 {
		t.Fatalf("slots %d endpoints %v", c.Slots(""), c.Endpoints("m"))
	}
	var wg sync.WaitGroup
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Chat(context.Background(), llm.Request{Messages: user("x")}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if a.Count() == 0 || b.Count() == 0 || a.Count()+b.Count() != 30 {
		t.Errorf("requests: %d and %d", a.Count(), b.Count())
	}
	if peak[0].Load() > 2 || peak[1].Load() > 3 {
		t.Errorf("peak in flight %d and %d, limits 2 and 3", peak[0].Load(), peak[1].Load())
	}
	if _, err := c.Chat(context.Background(), llm.Request{Model: "other", Messages: user("x")}); !llm.IsFatal(err) {
		t.Errorf("unknown model: err = %v", err)
	}
}

func TestNewErrors(t *testing.T) {
	for _, cfg := range []llm.Config{
		{},
		{Endpoints: []llm.Endpoint{{BaseURL: "http://127.0.0.1:1/v1"}}},
		{Endpoints: []llm.Endpoint{{BaseURL: "http://127.0.0.1:1/v1", Model: "m", RPM: -1}}},
	} {
		if _, err := llm.New(cfg); err == nil {
			t.Errorf("New(%+v): no error", cfg)
		}
	}
}

func TestToolCallReply(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.CallTool("print(1)"))
	resp, err := newClient(t, one(srv.URL)).Chat(context.Background(), llm.Request{Messages: user("x")})
	if err != nil {
		t.Fatal(err)
	}
	tc := resp.Message.ToolCalls
	if len(tc) != 1 || tc[0].Name != "execute_python" || !strings.Contains(tc[0].Arguments, "print(1)") || tc[0].ID == "" || resp.FinishReason != "tool_calls" {
		t.Errorf("message = %+v finish %q", resp.Message, resp.FinishReason)
	}
}

var _ = http.StatusOK

func TestRateLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		ep   llm.Endpoint
	}{
		{"rpm", llm.Endpoint{RPM: 1}},
		{"tpm", llm.Endpoint{TPM: 60}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Always(llmtest.Reply{Content: "ok", PromptTokens: 100, CompletionTokens: 100}))
			ep := tc.ep
			ep.BaseURL, ep.Model = srv.URL, "m"
			c := newClient(t, llm.Config{Endpoints: []llm.Endpoint{ep}})
			if _, err := c.Chat(context.Background(), llm.Request{Messages: user("x")}); err != nil {
				t.Fatal(err)
			}
			// The limit allows one request (or 60 tokens) a minute: the next
			// request cannot go out within a second.
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			_, err := c.Chat(ctx, llm.Request{Messages: user("x")})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, want deadline exceeded", err)
			}
			if n := srv.Count(); n != 1 {
				t.Errorf("server got %d requests, want 1", n)
			}
		})
	}
}

func TestBudgetStopsQueuedCalls(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Slow(50*time.Millisecond, llmtest.Always(llmtest.Reply{Content: "a", PromptTokens: 10, CompletionTokens: 10})))
	cfg := one(srv.URL)
	cfg.Endpoints[0].Concurrency = 1
	cfg.MaxTokens = 5
	c := newClient(t, cfg)
	var wg sync.WaitGroup
	var budget atomic.Int32
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Chat(context.Background(), llm.Request{Messages: user("x")}); llm.IsBudget(err) {
				budget.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := srv.Count(); n != 1 || budget.Load() != 7 {
		t.Errorf("server got %d requests and %d calls hit the budget; want 1 and 7", n, budget.Load())
	}
}
