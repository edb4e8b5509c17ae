package rollout

import (
	"context"
	"errors"
	"fmt"

	"synth/llm"
)

// Endpoint is a run's LLM client, once made, and whether its endpoints
// passed the preflight: what a build's openai teacher and LLM writer share,
// and each of an eval's clients (its teacher's and its judge's). Who makes
// the client, and with which budget and cache, is the caller's. The zero
// Endpoint has no client: it never halts and needs no preflight.
type Endpoint struct {
	Client  *llm.Client
	checked bool // the endpoints passed preflight
}

// ErrHalted marks a run stopped by Halted.
var ErrHalted = errors.New("run stopped")

// Stopping is the client's error when it must stop the run taking work:
// the budget is spent or an endpoint refused in a way retries cannot cure
// (a bad key, a wrong model); nil otherwise.
func (e *Endpoint) Stopping() error {
	if e.Client == nil {
		return nil
	}
	if err := e.Client.Err(); err != nil && (llm.IsBudget(err) || llm.IsFatal(err)) {
		return err
	}
	return nil
}

// Halted is Stopping's error as a build reports it: a spent budget says
// how to raise it and continue.
func (e *Endpoint) Halted() error {
	err := e.Stopping()
	if err != nil && llm.IsBudget(err) {
		return fmt.Errorf("%w: raise llm.max_cost_usd or llm.max_tokens (or --max-cost-usd) and run the same command again to continue", err)
	}
	return err
}

// Preflight checks the client's endpoints, once, before the first request
// that costs anything: a dead, misconfigured or unauthorised endpoint stops
// the run within seconds instead of failing every rollout.
func (e *Endpoint) Preflight(ctx context.Context) error {
	if e.Client == nil || e.checked {
		return nil
	}
	if err := e.Client.Preflight(ctx); err != nil {
		return fmt.Errorf("llm endpoint check (nothing was sent to the model yet): %w", err)
	}
	e.checked = true
	return nil
}
