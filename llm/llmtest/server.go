package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/schemas"
)

// Call is a request the server received.
type Call struct {
	N        int            // order of arrival, from 0
	Raw      []byte         // the body as received
	Body     map[string]any // the body decoded
	Header   http.Header
	Model    string
	Messages []schemas.Message
}

// Turn is the number of assistant messages already in the conversation:
// 0 for the first reply of a rollout.
func (c Call) Turn() int {
	n := 0
	for _, m := range c.Messages {
		if m.Role == schemas.RoleAssistant {
			n++
		}
	}
	return n
}

// Query is the first user message that is not an "[INFO]" notice: the
// task's query in both synth formats.
func (c Call) Query() string {
	for _, m := range c.Messages {
		if m.Role == schemas.RoleUser && !strings.HasPrefix(m.Content, "[INFO]") {
			return m.Content
		}
	}
	return ""
}

// Last is the last message of the conversation.
func (c Call) Last() schemas.Message {
	if len(c.Messages) == 0 {
		return schemas.Message{}
	}
	return c.Messages[len(c.Messages)-1]
}

// Reply is what the server answers to one call.
type Reply struct {
	Status       int               // 0: 200
	Header       map[string]string // e.g. Retry-After
	Body         string            // raw body; when set, the fields below are ignored
	Content      string
	ToolCalls    []schemas.ToolCall
	FinishReason string // default stop, or tool_calls when there are calls
	// Token counts reported in usage; 0: estimated at 4 characters a token.
	PromptTokens, CompletionTokens, CachedTokens int
	Delay                                        time.Duration // wait before answering
	Drop                                         bool          // close the connection without answering
}

// Script decides the reply to a call.
type Script func(Call) Reply

// Server is a running fake endpoint. URL is its base URL (ending in /v1).
type Server struct {
	URL string

	t       testing.TB
	srv     *httptest.Server
	scripts []Script

	mu       sync.Mutex
	calls    []Call
	latency  time.Duration
	models   []string
	key      string        // when set, requests without it get a 401
	listed   int           // GET /models requests
	slots    chan struct{} // nil: every request is served at once
	computed int           // replies computed
	wasted   int           // replies computed for a client that had gone
	inFlight int           // requests received and not yet answered
	peak     int           // the most requests in flight at once
}

// NewServer starts a server that answers request i with scripts[i], the last
// script answering every request after that. It stops when the test ends.
func NewServer(t testing.TB, scripts ...Script) *Server {
	if len(scripts) == 0 {
		scripts = []Script{Say("Finished: done")}
	}
	s := &Server{t: t, scripts: scripts}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.srv.Close)
	return s
}

// SetLatency adds d before every reply.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	s.latency = d
	s.mu.Unlock()
}

// Calls returns the requests received so far, in order of arrival.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Count is the number of requests received so far.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

// ServeModels sets what GET /v1/models lists. Until it is called the list
// is empty, which tells a client nothing about the models served.
func (s *Server) ServeModels(names ...string) {
	s.mu.Lock()
	s.models = names
	s.mu.Unlock()
}

// Listed is the number of GET /v1/models requests received.
func (s *Server) Listed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listed
}

// SetSlots makes the server compute n replies at a time, as a llama.cpp
// server with n slots does: other requests queue, and a request, once
// received, is computed to the end (its delay spent in a slot) even when
// its client has given up.
func (s *Server) SetSlots(n int) {
	s.mu.Lock()
	s.slots = make(chan struct{}, n)
	s.mu.Unlock()
}

// Load reports the replies computed, those computed for a client that had
// already gone (wasted work), and the most requests in flight at once.
func (s *Server) Load() (computed, wasted, peak int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.computed, s.wasted, s.peak
}

// DeadURL is the base URL of a port where nothing listens: connections are
// refused.
func DeadURL(t testing.TB) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/v1"
	srv.Close()
	return url
}

func (s *Server) listModels(w http.ResponseWriter) {
	s.mu.Lock()
	s.listed++
	data := []any{}
	for _, m := range s.models {
		data = append(data, map[string]any{"id": m, "object": "model", "owned_by": "llmtest"})
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
}

// RequireKey makes the server refuse, with a 401 on every route, requests
// whose bearer token is not key.
func (s *Server) RequireKey(key string) {
	s.mu.Lock()
	s.key = key
	s.mu.Unlock()
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	if key != "" && r.Header.Get("Authorization") != "Bearer "+key {
		http.Error(w, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`, http.StatusUnauthorized)
		return
	}
	if r.Method == http.MethodGet && r.URL.Path == "/v1/models" {
		s.listModels(w)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	c := Call{Raw: raw, Header: r.Header.Clone()}
	var req struct {
		Model    string            `json:"model"`
		Messages []schemas.Message `json:"messages"`
	}
	if err := json.Unmarshal(raw, &c.Body); err != nil || json.Unmarshal(raw, &req) != nil {
		http.Error(w, `{"error":{"message":"body is not JSON"}}`, http.StatusBadRequest)
		return
	}
	var msgs []struct {
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	}
	if m, ok := c.Body["messages"]; ok {
		b, _ := json.Marshal(m)
		_ = json.Unmarshal(b, &msgs)
	}
	for i := range req.Messages {
		req.Messages[i].ToolCalls = nil
		if i < len(msgs) {
			for _, tc := range msgs[i].ToolCalls {
				req.Messages[i].ToolCalls = append(req.Messages[i].ToolCalls,
					schemas.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
			}
		}
	}
	c.Model, c.Messages = req.Model, req.Messages
	s.mu.Lock()
	c.N = len(s.calls)
	s.calls = append(s.calls, c)
	script := s.scripts[min(c.N, len(s.scripts)-1)]
	latency, slots := s.latency, s.slots
	s.inFlight++
	s.peak = max(s.peak, s.inFlight)
	s.mu.Unlock()
	defer func() { s.mu.Lock(); s.inFlight--; s.mu.Unlock() }()

	rep := script(c)
	d := latency + rep.Delay
	if slots != nil {
		slots <- struct{}{}
		time.Sleep(d)
		<-slots
		s.mu.Lock()
		s.computed++
		if r.Context().Err() != nil {
			s.wasted++
		}
		s.mu.Unlock()
	} else if d > 0 {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return
		}
	}
	if rep.Drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	body := rep.Body
	if body == "" {
		body = s.body(c, rep, status)
	}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func (s *Server) body(c Call, rep Reply, status int) string {
	if status != http.StatusOK {
		msg := rep.Content
		if msg == "" {
			msg = http.StatusText(status)
		}
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "fake", "code": status}})
		return string(b)
	}
	type fn struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type tc struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}
	msg := map[string]any{"role": "assistant", "content": rep.Content}
	finish := rep.FinishReason
	if len(rep.ToolCalls) > 0 {
		var calls []tc
		for i, t := range rep.ToolCalls {
			id := t.ID
			if id == "" {
				id = fmt.Sprintf("call_%d_%d", c.N, i)
			}
			calls = append(calls, tc{ID: id, Type: "function", Function: fn{Name: t.Name, Arguments: t.Arguments}})
		}
		msg["tool_calls"] = calls
		if finish == "" {
			finish = "tool_calls"
		}
	}
	if finish == "" {
		finish = "stop"
	}
	pt, ct := rep.PromptTokens, rep.CompletionTokens
	if pt == 0 {
		n := 0
		for _, m := range c.Messages {
			n += len(m.Content)
		}
		pt = n/4 + 1
	}
	if ct == 0 {
		ct = len(rep.Content)/4 + 1
	}
	b, _ := json.Marshal(map[string]any{
		"id": fmt.Sprintf("chatcmpl-%d", c.N), "object": "chat.completion", "created": 1700000000, "model": c.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage": map[string]any{"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct,
			"prompt_tokens_details": map[string]any{"cached_tokens": rep.CachedTokens}},
	})
	return string(b)
}
