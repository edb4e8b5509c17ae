package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// Client gets URLs politely. The zero value is not usable; use New.
type Client struct {
	HTTP      *http.Client
	Limiter   *rate.Limiter                   // nil: no limit
	Retries   int                             // retries after the first try
	Backoff   func(attempt int) time.Duration // wait before retry n (1-based) without Retry-After
	MaxWait   time.Duration                   // cap on a Retry-After wait
	Header    http.Header                     // sent with every request
	Authorize func(*http.Request)             // e.g. basic auth; nil: none
}

// New returns a client with a 60 s request timeout, the given rate (requests
// per minute; 0: no limit) and retries, and exponential backoff from 1 s.
func New(perMinute float64, retries int) *Client {
	c := &Client{
		HTTP:    &http.Client{Timeout: 10 * time.Minute},
		Retries: retries,
		Backoff: func(n int) time.Duration { return time.Duration(1<<min(n-1, 6)) * time.Second },
		MaxWait: 2 * time.Minute,
		Header:  http.Header{"User-Agent": {"synth (dataset builder)"}},
	}
	if perMinute > 0 {
		c.Limiter = rate.NewLimiter(rate.Limit(perMinute/60), 1)
	}
	return c
}

// StatusError is a non-2xx answer.
type StatusError struct {
	URL        string
	Code       int
	Body       string // the start of the answer, for the message
	RetryAfter time.Duration
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("GET %s: %s", e.URL, http.StatusText(e.Code))
	if e.Code != 0 {
		msg = fmt.Sprintf("GET %s: %d %s", e.URL, e.Code, http.StatusText(e.Code))
	}
	if b := strings.TrimSpace(e.Body); b != "" {
		msg += ": " + b
	}
	return msg
}

// Retry reports whether the request may succeed if repeated: 408, 425,
// 429 and 5xx.
func (e *StatusError) Retry() bool {
	return e.Code == 408 || e.Code == 425 || e.Code == 429 || e.Code >= 500
}

// Fatal reports an answer that no repetition fixes and that stops a
// source: 401 and 403 (credentials).
func (e *StatusError) Fatal() bool { return e.Code == 401 || e.Code == 403 }

// Get fetches url and returns the response of the first 2xx answer; the
// caller closes its body. Retryable answers and transport errors are
// retried up to c.Retries times; the last error is returned.
func (c *Client) Get(ctx context.Context, url string) (*http.Response, error) {
	return c.GetWith(ctx, url, nil)
}

// GetWith is Get with extra request headers (e.g. Range to resume).
func (c *Client) GetWith(ctx context.Context, url string, header http.Header) (*http.Response, error) {
	var last error
	for attempt := 0; attempt <= max(c.Retries, 0); attempt++ {
		if attempt > 0 {
			wait := c.Backoff(attempt)
			var se *StatusError
			if errors.As(last, &se) && se.RetryAfter > 0 {
				wait = min(se.RetryAfter, c.MaxWait)
			}
			if err := sleep(ctx, wait); err != nil {
				return nil, err
			}
		}
		resp, err := c.once(ctx, url, header)
		if err == nil {
			return resp, nil
		}
		last = err
		var se *StatusError
		if ctx.Err() != nil || errors.As(err, &se) && !se.Retry() {
			return nil, err
		}
	}
	if c.Retries > 0 {
		return nil, fmt.Errorf("after %d tries: %w", c.Retries+1, last)
	}
	return nil, last
}

func (c *Client) once(ctx context.Context, url string, header http.Header) (*http.Response, error) {
	if c.Limiter != nil {
		if err := c.Limiter.Wait(ctx); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if c.Authorize != nil {
		c.Authorize(req)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 == 2 {
		return resp, nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	se := &StatusError{URL: redact(url), Code: resp.StatusCode, Body: string(body)}
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		if s, err := strconv.Atoi(ra); err == nil {
			se.RetryAfter = time.Duration(s) * time.Second
		} else if t, err := http.ParseTime(ra); err == nil {
			se.RetryAfter = time.Until(t)
		}
	}
	return nil, se
}

// redact drops a query string's values that look like secrets.
func redact(u string) string {
	if i := strings.Index(u, "key="); i >= 0 {
		return u[:i] + "key=REDACTED"
	}
	return u
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
