package writer

import (
	"context"
	"errors"
	"fmt"

	"synth/llm"
	"synth/schemas"
)

// ProbeJSON asks the endpoint serving model once, with a client of its own
// (no cache, no retries), for a JSON object reply (response_format). It
// reports false when the endpoint refuses the field (HTTP 400 or 422), so
// the writer can go on without JSON mode: a refusal through the run's client
// would stop the run. Other failures are returned.
func ProbeJSON(ctx context.Context, cfg llm.Config, model string) (bool, error) {
	cfg.NoCache = true
	cfg.MaxRetries = -1
	cfg.MaxCostUSD, cfg.MaxTokens = 0, 0
	c, err := llm.New(cfg)
	if err != nil {
		return false, err
	}
	_, err = c.Chat(ctx, llm.Request{Model: model, JSON: true, MaxTokens: 16, Messages: []schemas.Message{
		{Role: schemas.RoleUser, Content: `Reply with the JSON object {"ok": true}.`}}})
	var e *llm.Error
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &e) && (e.Status == 400 || e.Status == 422):
		return false, nil
	}
	return false, fmt.Errorf("llm writer: probing JSON mode: %w", err)
}
