package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"synth/internal/pacer"
)

// DefaultIdleTimeout is how long a request may go without receiving a byte
// (waiting for the answer's header, or between reads of its body) before
// it is abandoned. A slow body that keeps arriving is never cut.
const DefaultIdleTimeout = 60 * time.Second

// Client gets URLs politely. The zero value is not usable; use New.
type Client struct {
	HTTP    *http.Client
	Limiter *rate.Limiter // nil: no limit
	Retries int           // retries after the first try
	// Backoff is the wait before retry n (1-based), unless the server's
	// Retry-After asks for longer; nil: exponential from 1 s up to 64 s,
	// with jitter (package pacer).
	Backoff   func(attempt int) time.Duration
	MaxWait   time.Duration       // cap on a Retry-After wait
	Header    http.Header         // sent with every request
	Authorize func(*http.Request) // e.g. basic auth; nil: none
	// IdleTimeout abandons a request that receives nothing for this long
	// (0: DefaultIdleTimeout). There is no limit on a request's total time.
	IdleTimeout time.Duration
	// HostEvery spaces requests to each host at least this far apart, with
	// one limiter per host shared by every Client of the process (0: none).
	HostEvery time.Duration
	// HostFloor, when set, raises HostEvery for some hosts (a service's
	// own minimum, such as arXiv's 3 s); 0 leaves it as it is.
	HostFloor func(host string) time.Duration
	// ProgressEvery is how often Download reports progress (0: 10 s).
	ProgressEvery time.Duration
}

// New returns a client with the given rate (requests per minute; 0: no
// limit) and retries, exponential backoff from 1 s with jitter, and an idle timeout of
// DefaultIdleTimeout instead of a limit on the whole request.
func New(perMinute float64, retries int) *Client {
	c := &Client{
		HTTP:    &http.Client{},
		Retries: retries,
		MaxWait: 2 * time.Minute,
		Header:  http.Header{"User-Agent": {UserAgent("")}},
	}
	if perMinute > 0 {
		c.Limiter = rate.NewLimiter(rate.Limit(perMinute/60), 1)
	}
	return c
}

// Version is synth's version, sent in the User-Agent; main sets it.
var Version = "dev"

// UserAgent is the User-Agent synth sends: its version and, when the user
// set one, a contact (an e-mail address or URL) that services such as
// arXiv ask for.
func UserAgent(contact string) string {
	ua := "synth/" + Version + " (dataset builder"
	if c := strings.TrimSpace(contact); c != "" {
		ua += "; " + c
	}
	return ua + ")"
}

var hostLimiters sync.Map // host -> *rate.Limiter

// hostLimiter returns the process's limiter for host, creating it with
// the given spacing the first time.
func hostLimiter(host string, every time.Duration) *rate.Limiter {
	l, _ := hostLimiters.LoadOrStore(host, rate.NewLimiter(rate.Every(every), 1))
	return l.(*rate.Limiter)
}

// Request is one HTTP request. Method "" is GET; Body, when set, is sent
// as JSON.
type Request struct {
	Method string
	URL    string
	Body   []byte
	Header http.Header
	// NoAuth sends no credentials (a storage URL reached by a redirect).
	NoAuth bool
}

// StatusError is a non-2xx answer.
type StatusError struct {
	Method     string // "" is GET
	URL        string
	Code       int
	Body       string // the start of the answer, for the message
	Raw        []byte // up to 64 KiB of the answer, for callers that parse it
	Header     http.Header
	RetryAfter time.Duration
}

func (e *StatusError) Error() string {
	m := e.Method
	if m == "" {
		m = http.MethodGet
	}
	msg := fmt.Sprintf("%s %s: %s", m, e.URL, http.StatusText(e.Code))
	if e.Code != 0 {
		msg = fmt.Sprintf("%s %s: %d %s", m, e.URL, e.Code, http.StatusText(e.Code))
	}
	if m := envelopeMessage(e.Raw); m != "" {
		msg += ": " + m
	} else if b := strings.TrimSpace(e.Body); b != "" {
		msg += ": " + b
	}
	return msg
}

// envelopeMessage is the message of a JSON error envelope
// ({"code": 403, "message": "…"}), as services such as Kaggle send it;
// "" when the answer is not one.
func envelopeMessage(raw []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &e) != nil {
		return ""
	}
	return strings.TrimSpace(e.Message)
}

// Retry reports whether the request may succeed if repeated: 408, 425,
// 429 and 5xx.
func (e *StatusError) Retry() bool {
	return e.Code == 408 || e.Code == 425 || e.Code == 429 || e.Code >= 500
}

// Fatal reports an answer that no repetition fixes and that stops a
// source: 401 and 403 (credentials).
func (e *StatusError) Fatal() bool { return e.Code == 401 || e.Code == 403 }

// IdleError is a request that received nothing for the idle timeout.
type IdleError struct{ After time.Duration }

func (e *IdleError) Error() string {
	return fmt.Sprintf("no data for %s (idle timeout)", e.After)
}

// Get fetches url and returns the response of the first 2xx answer; the
// caller closes its body. Retryable answers and transport errors are
// retried up to c.Retries times; the last error is returned.
func (c *Client) Get(ctx context.Context, url string) (*http.Response, error) {
	return c.Do(ctx, Request{URL: url})
}

// GetWith is Get with extra request headers (e.g. Range to resume).
func (c *Client) GetWith(ctx context.Context, url string, header http.Header) (*http.Response, error) {
	return c.Do(ctx, Request{URL: url, Header: header})
}

// Do sends r, retrying as Get does, and returns the first 2xx answer.
func (c *Client) Do(ctx context.Context, r Request) (*http.Response, error) {
	var resp *http.Response
	err := c.policy().Call(ctx, func(int) error {
		var err error
		resp, err = c.once(ctx, r)
		var se *StatusError
		switch {
		case err == nil || ctx.Err() != nil:
			return err
		case errors.As(err, &se) && !se.Retry():
			return err
		case se != nil && se.RetryAfter > 0:
			return pacer.Retry(err, time.Now().Add(se.RetryAfter))
		}
		return pacer.Retry(err, time.Time{})
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// policy is the client's retry policy: c.Retries retries after the first
// try, waiting c.Backoff (or pacer's exponential backoff from 1 s up to
// 64 s) or the server's Retry-After when longer, capped at c.MaxWait.
func (c *Client) policy() pacer.Policy {
	return pacer.Policy{Attempts: max(c.Retries, 0) + 1, Base: time.Second, Max: 64 * time.Second,
		Backoff: c.Backoff, MaxRetryAfter: c.MaxWait}
}

func (c *Client) once(ctx context.Context, r Request) (*http.Response, error) {
	req, err := c.newRequest(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := c.wait(ctx, req); err != nil {
		return nil, err
	}
	idle := c.IdleTimeout
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	rctx, cancel := context.WithCancel(ctx)
	t := newIdleTimer(idle, cancel)
	resp, err := c.HTTP.Do(req.WithContext(rctx))
	if err != nil {
		t.stop()
		cancel()
		if t.fired.Load() && ctx.Err() == nil {
			return nil, fmt.Errorf("%s %s: %w", req.Method, redact(r.URL), &IdleError{idle})
		}
		return nil, err
	}
	resp.Body = &idleBody{rc: resp.Body, t: t, cancel: cancel}
	if resp.StatusCode/100 == 2 {
		return resp, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	se := &StatusError{Method: req.Method, URL: redact(r.URL), Code: resp.StatusCode, Body: string(raw[:min(len(raw), 300)]), Raw: raw, Header: resp.Header}
	if at := pacer.RetryAfter(resp.Header, time.Now()); !at.IsZero() {
		se.RetryAfter = time.Until(at)
	}
	return nil, se
}

func (c *Client) newRequest(ctx context.Context, r Request) (*http.Request, error) {
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.URL, body)
	if err != nil {
		return nil, err
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	if r.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range r.Header {
		req.Header[k] = v
	}
	if c.Authorize != nil && !r.NoAuth {
		c.Authorize(req)
	}
	return req, nil
}

// wait paces the request: the client's own limiter, then the host's.
func (c *Client) wait(ctx context.Context, req *http.Request) error {
	if c.Limiter != nil {
		if err := c.Limiter.Wait(ctx); err != nil {
			return err
		}
	}
	every := c.HostEvery
	if c.HostFloor != nil {
		every = max(every, c.HostFloor(req.URL.Hostname()))
	}
	if every > 0 {
		return hostLimiter(req.URL.Host, every).Wait(ctx)
	}
	return nil
}

// idleTimer cancels a request when it fires; every byte received resets it.
type idleTimer struct {
	d     time.Duration
	t     *time.Timer
	fired atomic.Bool
}

func newIdleTimer(d time.Duration, cancel func()) *idleTimer {
	it := &idleTimer{d: d}
	it.t = time.AfterFunc(d, func() { it.fired.Store(true); cancel() })
	return it
}

func (it *idleTimer) reset() { it.t.Reset(it.d) }
func (it *idleTimer) stop()  { it.t.Stop() }

type idleBody struct {
	rc     io.ReadCloser
	t      *idleTimer
	cancel func()
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 && !b.t.fired.Load() {
		b.t.reset()
	}
	if err != nil && err != io.EOF && b.t.fired.Load() {
		err = &IdleError{b.t.d}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.t.stop()
	err := b.rc.Close()
	b.cancel()
	return err
}

// redact drops a query string's values that look like secrets.
func redact(u string) string {
	if i := strings.Index(u, "key="); i >= 0 {
		return u[:i] + "key=REDACTED"
	}
	return u
}
