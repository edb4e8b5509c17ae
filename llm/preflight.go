package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Preflight bounds: a live server answers a models list at once, and a
// one-token completion within a minute even when it has to load the model.
const (
	listTimeout  = 10 * time.Second
	probeTimeout = 60 * time.Second
)

// Preflight checks every endpoint with one cheap request before a run
// spends anything on it: GET {base_url}/models, and when that fails (other
// than by refusing the key or the connection) or does not list the model, a
// one-token completion. It returns nil when every endpoint can serve its
// model, or the endpoints' errors joined: each a fatal *Error naming the
// endpoint, what went wrong and the fix. An empty models list says
// nothing, so it is taken as serving every model.
func (c *Client) Preflight(ctx context.Context) error {
	errs := make([]error, len(c.endpoints))
	var wg sync.WaitGroup
	for i, e := range c.endpoints {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.preflight(ctx, e)
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return errors.Join(errs...)
}

func (c *Client) preflight(ctx context.Context, e *endpoint) error {
	models, err := c.listModels(ctx, e)
	var le *Error
	switch {
	case err == nil && (len(models) == 0 || slices.Contains(models, e.cfg.Model)):
		return nil
	case errors.As(err, &le) && le.fatal:
		return err // refused connection or key: a completion would fare no better
	}
	perr := c.probe(ctx, e)
	if perr != nil && len(models) > 0 {
		perr.Fix = fmt.Sprintf("the server lists %s, not %q: check the model name", strings.Join(first(models, 8), ", "), e.cfg.Model)
	}
	if perr == nil {
		return nil
	}
	return perr
}

// listModels asks for the models list: the models' ids, or an error. A
// refused connection and a refused key are fatal; other failures are not,
// since some servers have no models route.
func (c *Client) listModels(ctx context.Context, e *endpoint) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.name+"/models", nil)
	if err != nil {
		return nil, &Error{Endpoint: e.name, Msg: "base_url is not a URL: " + err.Error(), Fix: "e.g. http://127.0.0.1:8000/v1", fatal: true}
	}
	b, status, err := c.send(req, e)
	if err != nil {
		return nil, &Error{Endpoint: e.name, Msg: "cannot connect: " + err.Error(), Err: err, fatal: true,
			Fix: "is the server running and listening at this address? check base_url and the port"}
	}
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		return nil, classify(e.name, e.keyEnv, e.cfg.Model, status, errorMessage(b, http.StatusText(status)), b, zeroTime)
	}
	if status/100 != 2 {
		return nil, &Error{Endpoint: e.name, Status: status, Msg: "GET /models: " + errorMessage(b, http.StatusText(status))}
	}
	var list struct {
		Data *[]struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.Unmarshal(b, &list) != nil || list.Data == nil {
		return nil, &Error{Endpoint: e.name, Status: status, Msg: "GET /models: not a models list: " + firstBytes(b, 120)}
	}
	var ids []string
	for _, m := range *list.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// probe asks for a one-token completion, bypassing the cache. A 429 means
// the server is there and knows the key, so it passes.
func (c *Client) probe(ctx context.Context, e *endpoint) *Error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	fields := map[string]any{}
	for k, v := range c.cfg.Extra {
		fields[k] = v
	}
	for k, v := range e.cfg.Extra {
		fields[k] = v
	}
	fields["model"] = e.cfg.Model
	fields["messages"] = []map[string]string{{"role": "user", "content": "Reply with OK."}}
	fields["max_tokens"] = 1
	body, _ := json.Marshal(fields)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.name+"/chat/completions", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	b, status, err := c.send(req, e)
	switch {
	case err != nil && ctx.Err() != nil:
		return &Error{Endpoint: e.name, Msg: fmt.Sprintf("a one-token completion got no reply within %s", probeTimeout), Err: err, fatal: true,
			Fix: "is the server overloaded or still loading the model?"}
	case err != nil:
		return &Error{Endpoint: e.name, Msg: "cannot connect: " + err.Error(), Err: err, fatal: true,
			Fix: "is the server running and listening at this address? check base_url and the port"}
	case status == http.StatusTooManyRequests:
		return nil
	case status/100 != 2:
		ce := classify(e.name, e.keyEnv, e.cfg.Model, status, errorMessage(b, http.StatusText(status)), b, zeroTime)
		if ce.contextLength {
			return nil // it answered, and a one-line prompt fits any real conversation's context
		}
		ce.fatal, ce.retry = true, false
		if ce.Fix == "" {
			ce.Fix = "the server fails a one-token completion; is it healthy?"
		}
		return ce
	}
	t := transport{ep: e}
	if err := t.checkCompletion(status, b); err != nil {
		ce := err.(*Error)
		ce.fatal, ce.retry = true, false
		return ce
	}
	return nil
}

func (c *Client) send(req *http.Request, e *endpoint) ([]byte, int, error) {
	if e.key != "" {
		req.Header.Set("Authorization", "Bearer "+e.key)
	}
	resp, err := c.doer.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	return b, resp.StatusCode, err
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}
