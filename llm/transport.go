package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"synth/internal/pacer"
)

// HTTPDoer sends one HTTP request; *http.Client is one.
type HTTPDoer interface {
	Do(req *http.Request) (*http.Response, error)
}

// call is the state of one Chat call that the transport needs and fills in.
// It travels in the request's context because go-openai builds the request.
type call struct {
	fields map[string]any // body fields to set: temperature, extras
	salt   string         // mixed into the cache key, not sent

	cached     bool
	attempts   int
	body       []byte        // the body as sent
	latency    time.Duration // of the attempt that answered
	tokens     int64         // completion tokens of the reply, set by Chat
	overloaded bool          // an attempt timed out or got a 429
}

func (c *call) outcome() outcome {
	if c.cached {
		return outcome{}
	}
	return outcome{latency: c.latency, tokens: c.tokens, overloaded: c.overloaded}
}

type callKey struct{}

func withCall(ctx context.Context, c *call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// transport is the HTTP client go-openai talks through for one endpoint. It
// rewrites the body (go-openai drops temperature 0 and knows no extra
// fields), answers from the cache, bounds each attempt by a timeout, and
// retries 429, 408, 5xx and dropped connections through the retry policy
// of package pacer (exponential backoff with jitter, the server's
// Retry-After). It returns either a 2xx
// response with its body fully read, or an *Error.
type transport struct {
	ep      *endpoint
	next    HTTPDoer
	cache   *cache
	timeout time.Duration
	retries int
	// maxReply bounds a reply's body in bytes.
	maxReply int64
	base     time.Duration // first backoff
	max      time.Duration // largest backoff
	brk      *breaker
	onRetry  func()
	log      *slog.Logger
}

func (t *transport) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	c, _ := ctx.Value(callKey{}).(*call)
	if c == nil {
		c = &call{}
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	if body, err = rewrite(body, c.fields); err != nil {
		return nil, fmt.Errorf("endpoint %s: encode request: %w", t.ep.name, err)
	}
	c.body = body
	key := ""
	if t.cache != nil {
		key = cacheKey(c.salt, body)
		if b, ok := t.cache.get(key); ok {
			c.cached = true
			return reply(req, b), nil
		}
	}
	if err := t.ep.waitTokens(ctx, estimateTokens(body)); err != nil {
		return nil, t.limitError(ctx, "tokens", err)
	}
	var b []byte
	err = t.policy().Call(ctx, func(attempt int) error {
		if err := t.brk.wait(ctx); err != nil {
			return err
		}
		c.attempts++
		start := time.Now()
		var err error
		b, err = t.attempt(ctx, req, body)
		e, _ := err.(*Error)
		if e != nil && (e.timeout || e.Status == 429) {
			c.overloaded = true
		}
		if e != nil && infra(e) {
			if stop := t.brk.failure(e); stop != nil {
				return stop
			}
		}
		if err == nil {
			c.latency = time.Since(start)
			t.brk.success()
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !errors.As(err, &e) || !e.retry || e.badReply && attempt >= badReplyRetries {
			return err
		}
		return pacer.Retry(err, e.retryAfter)
	})
	if ex := (*pacer.ExhaustedError)(nil); errors.As(err, &ex) {
		err = ex.Err
	}
	if err != nil {
		return nil, err
	}
	if key != "" {
		t.cache.put(key, b)
	}
	return reply(req, b), nil
}

// policy is the transport's retry policy: t.retries retries with
// exponential backoff from t.base up to t.max, or the server's
// Retry-After when longer; each retry is counted and logged.
func (t *transport) policy() pacer.Policy {
	return pacer.Policy{Attempts: t.retries + 1, Base: t.base, Max: t.max,
		OnRetry: func(n int, wait time.Duration, err error) {
			if t.onRetry != nil {
				t.onRetry()
			}
			t.log.Debug("llm retry", "endpoint", t.ep.name, "attempt", n, "wait", wait, "err", err)
		}}
}

// attempt sends the request once and reads the whole reply within the
// timeout.
func (t *transport) attempt(ctx context.Context, req *http.Request, body []byte) ([]byte, error) {
	if err := t.ep.waitRequest(ctx); err != nil {
		return nil, t.limitError(ctx, "requests", err)
	}
	actx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	r := req.Clone(actx)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	resp, err := t.next.Do(r)
	if err != nil {
		return nil, t.transportError(ctx, actx, err)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, t.maxReply+1))
	resp.Body.Close()
	if err != nil {
		return nil, t.transportError(ctx, actx, err)
	}
	if int64(len(b)) > t.maxReply {
		return nil, &Error{Endpoint: t.ep.name, Status: resp.StatusCode, replyTooLong: true,
			Msg: fmt.Sprintf("reply is longer than %d bytes; it was not read further", t.maxReply),
			Fix: "raise llm.max_reply_bytes if replies this long are expected, or lower teacher.max_reply_tokens"}
	}
	if resp.StatusCode/100 != 2 {
		return nil, classify(t.ep.name, t.ep.keyEnv, t.ep.cfg.Model, resp.StatusCode, errorMessage(b, resp.Status), b, pacer.RetryAfter(resp.Header, time.Now()))
	}
	if err := t.checkCompletion(resp.StatusCode, b); err != nil {
		return nil, err
	}
	return b, nil
}

// limitError reports a rate limiter that cannot grant a request before
// ctx ends (the limiter says so at once, before the deadline passes).
func (t *transport) limitError(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("endpoint %s: the %s-per-minute limit would wait past the deadline (%v): %w", t.ep.name, what, err, context.DeadlineExceeded)
}

func (t *transport) transportError(ctx, actx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if actx.Err() != nil {
		// The server may still be computing the reply: sending the request
		// again would only queue a second copy behind it.
		return &Error{Endpoint: t.ep.name, Msg: fmt.Sprintf("no reply within %s; not sent again, since the server may still be computing it", t.timeout),
			Err: err, timeout: true, Fix: "raise llm.timeout for a slow server, or lower the endpoint's concurrency"}
	}
	return &Error{Endpoint: t.ep.name, Msg: "connection failed: " + err.Error(), Err: err, retry: true, Fix: "is the server up and reachable? check base_url"}
}

func reply(req *http.Request, b []byte) *http.Response {
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    200,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(b)),
		ContentLength: int64(len(b)),
		Request:       req,
	}
}

// rewrite sets fields in a JSON object body. Keys come out sorted, so equal
// requests give equal bytes (and equal cache keys).
func rewrite(body []byte, fields map[string]any) ([]byte, error) {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	for k, v := range fields {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	return json.Marshal(m)
}

// errorMessage extracts the message of an OpenAI-style error body.
func errorMessage(b []byte, status string) string {
	var e struct {
		Error json.RawMessage `json:"error"`
		Msg   string          `json:"message"`
	}
	if json.Unmarshal(b, &e) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &inner) == nil && inner.Message != "" {
			return inner.Message
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return s
		}
		if e.Msg != "" {
			return e.Msg
		}
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	if s == "" {
		return status
	}
	return s
}

// estimateTokens guesses a request's token count from its size (about four
// bytes a token), for the tokens-per-minute limiter before the true usage
// is known.
func estimateTokens(body []byte) int { return len(body)/4 + 1 }

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
