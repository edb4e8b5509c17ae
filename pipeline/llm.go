package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"synth/llm"
	"synth/rundir"
	"synth/schemas"
)

// endpoint is a build's LLM client, made on first use, and whether its
// endpoints passed the preflight: what the openai teacher and the LLM
// writer share.
type endpoint struct {
	cfg     llm.Config
	c       *llm.Client
	checked bool // the endpoints passed preflight
}

// client is the run's LLM client, made on first use. Its budget counts what
// the journals in work already spent, so a budget holds across resumes.
func (e *endpoint) client(work string) (*llm.Client, error) {
	if e.c != nil {
		return e.c, nil
	}
	if len(e.cfg.Endpoints) == 0 {
		return nil, fmt.Errorf("the openai teacher and the llm query writer need an endpoint: pass --model M --base-url URL, or set llm.endpoints in the config")
	}
	var cost float64
	var tokens int64
	for _, j := range []string{rundir.Trajectories, rundir.BenchValidation} {
		_ = rundir.ReadJournal(filepath.Join(work, j), func(t schemas.Trajectory) error {
			cost += t.Usage.CostUSD
			tokens += t.Usage.PromptTokens + t.Usage.CompletionTokens
			return nil
		})
	}
	opts := []llm.Option{llm.WithSpent(cost, tokens)}
	if !e.cfg.NoCache {
		opts = append(opts, llm.WithCache(llm.CacheDir(work)))
	}
	c, err := llm.New(e.cfg, opts...)
	if err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	e.c = c
	return c, nil
}

// halted says why the run must stop taking work: the budget is spent or an
// endpoint refused in a way retries cannot cure (a bad key, a wrong model).
func (e *endpoint) halted() error {
	if e.c == nil {
		return nil
	}
	err := e.c.Err()
	switch {
	case err == nil:
		return nil
	case llm.IsBudget(err):
		return fmt.Errorf("%w: raise llm.max_cost_usd or llm.max_tokens (or --max-cost-usd) and run the same command again to continue", err)
	case llm.IsFatal(err):
		return err
	}
	return nil
}

// errHalted marks a run stopped by halted.
var errHalted = errors.New("run stopped")

// preflight checks the run's endpoints, once, before the first request
// that costs anything: a dead, misconfigured or unauthorised endpoint stops
// the run within seconds instead of failing every rollout.
func (e *endpoint) preflight(ctx context.Context) error {
	if e.c == nil || e.checked {
		return nil
	}
	if err := e.c.Preflight(ctx); err != nil {
		return fmt.Errorf("llm endpoint check (nothing was sent to the model yet): %w", err)
	}
	e.checked = true
	return nil
}

// checkEndpoints runs the preflight at the start of a build that has work
// left and needs an endpoint, before collecting and sandbox work that would
// otherwise hide a dead endpoint for minutes.
func (r *run) checkEndpoints(ctx context.Context, fresh bool) error {
	if !fresh || (r.cfg.Teacher.Kind != "openai" && r.cfg.Tasks.Writer != "llm") {
		return nil
	}
	if _, err := r.llm.client(r.work); err != nil {
		return err
	}
	return r.llm.preflight(ctx)
}
