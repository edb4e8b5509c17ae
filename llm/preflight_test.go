package llm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"synth/llm"
	"synth/llm/llmtest"
)

// TestPreflight: one cheap request per endpoint tells a live, well
// configured endpoint from a dead, misconfigured or unauthorised one, and
// the error names the endpoint, what went wrong and the fix.
func TestPreflight(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T) (url string, srv *llmtest.Server)
		calls   int // chat completions the server gets
		wantErr []string
	}{
		{name: "listed", setup: func(t *testing.T) (string, *llmtest.Server) {
			s := llmtest.NewServer(t)
			s.ServeModels("other", "m")
			return s.URL, s
		}},
		{name: "empty list", setup: func(t *testing.T) (string, *llmtest.Server) {
			s := llmtest.NewServer(t)
			return s.URL, s
		}},
		{name: "not listed but served", setup: func(t *testing.T) (string, *llmtest.Server) {
			s := llmtest.NewServer(t, llmtest.Say("OK"))
			s.ServeModels("model.gguf") // llama.cpp serves its one model under any name
			return s.URL, s
		}, calls: 1},
		{name: "dead", setup: func(t *testing.T) (string, *llmtest.Server) { return llmtest.DeadURL(t), nil },
			wantErr: []string{"cannot connect", "refused", "is the server running"}},
		{name: "unauthorised", setup: func(t *testing.T) (string, *llmtest.Server) {
			s := llmtest.NewServer(t)
			s.RequireKey("sk-other")
			return s.URL, s
		}, wantErr: []string{"HTTP 401", "Incorrect API key", "$TEST_KEY"}},
		{name: "wrong model", setup: func(t *testing.T) (string, *llmtest.Server) {
			s := llmtest.NewServer(t, llmtest.Always(llmtest.Reply{Status: 404, Content: "The model `m` does not exist."}))
			s.ServeModels("qwen2.5-coder", "llama3")
			return s.URL, s
		}, calls: 1, wantErr: []string{"HTTP 404", "does not exist", "the server lists qwen2.5-coder, llama3"}},
		{name: "wrong path", setup: func(t *testing.T) (string, *llmtest.Server) {
			s := llmtest.NewServer(t)
			return strings.TrimSuffix(s.URL, "/v1"), s
		}, wantErr: []string{"HTTP 404", "ends in /v1"}},
		{name: "garbage completion", setup: func(t *testing.T) (string, *llmtest.Server) {
			s := llmtest.NewServer(t, llmtest.Raw("<html>login page</html>"))
			s.ServeModels("x")
			return s.URL, s
		}, calls: 1, wantErr: []string{"not a chat completion", "login page"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url, srv := tc.setup(t)
			c := newClient(t, one(url))
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			err := c.Preflight(ctx)
			if srv != nil && srv.Count() != tc.calls {
				t.Errorf("server got %d completions, want %d", srv.Count(), tc.calls)
			}
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatalf("Preflight: %v", err)
				}
				return
			}
			if err == nil || !llm.IsFatal(err) {
				t.Fatalf("Preflight = %v, want a fatal error", err)
			}
			for _, s := range append(tc.wantErr, url) {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			if strings.Contains(err.Error(), "sk-secret") {
				t.Errorf("error leaks the key: %v", err)
			}
		})
	}
}

// TestBaseURLFromEnvironment: an endpoint without base_url goes to
// $OPENAI_BASE_URL, as the OpenAI SDKs do.
func TestBaseURLFromEnvironment(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Say("ok"))
	c, err := llm.New(llm.Config{Endpoints: []llm.Endpoint{{Model: "m"}}}, llm.WithGetenv(func(k string) string {
		if k == "OPENAI_BASE_URL" {
			return srv.URL
		}
		return ""
	}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Chat(context.Background(), llm.Request{Messages: user("x")})
	if err != nil || resp.Endpoint != srv.URL || srv.Count() != 1 {
		t.Fatalf("%+v %v (server got %d)", resp, err, srv.Count())
	}
	if got := llm.DefaultBaseURL(func(string) string { return "" }); got != "https://api.openai.com/v1" {
		t.Errorf("default base URL %q", got)
	}
}
