package pipeline

import (
	"fmt"
	"path/filepath"

	"synth/llm"
	"synth/rollout"
	"synth/rundir"
	"synth/schemas"
)

// endpoint is a build's LLM client (rollout.Endpoint: its halting and
// preflight), made on first use: what the openai teacher and the LLM writer
// share.
type endpoint struct {
	cfg llm.Config
	rollout.Endpoint
}

// client is the run's LLM client, made on first use. Its budget counts what
// the journals in work already spent, so a budget holds across resumes.
func (e *endpoint) client(work string) (*llm.Client, error) {
	if e.Client != nil {
		return e.Client, nil
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
	e.Client = c
	return c, nil
}

// errHalted marks a run stopped by halted (rollout.ErrHalted).
var errHalted = rollout.ErrHalted
