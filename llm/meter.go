package llm

import (
	"sync"
	"time"

	"synth/schemas"
)

var zeroTime time.Time

// Totals is what a Client has done so far.
type Totals struct {
	Requests         int64 // calls answered by a server
	CacheHits        int64 // calls answered from the cache
	Retries          int64 // HTTP attempts repeated
	Failures         int64 // calls that returned an error
	PromptTokens     int64 // of calls answered by a server
	CompletionTokens int64
	CachedTokens     int64
	CostUSD          float64 // spent in this process
}

// Budget is the state of the spending limits.
type Budget struct {
	MaxCostUSD  float64 // 0: none
	MaxTokens   int64   // 0: none
	SpentUSD    float64 // including what WithSpent carried over
	SpentTokens int64
	Reached     bool
}

type meter struct {
	mu          sync.Mutex
	t           Totals
	spentUSD    float64 // carried over from earlier parts of the run
	spentTokens int64
	fatal       error // the first error that should stop the run
}

func (m *meter) stop(err error) {
	m.mu.Lock()
	if m.fatal == nil {
		m.fatal = err
	}
	m.mu.Unlock()
}

func (m *meter) add(u schemas.Usage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t.Requests++
	m.t.PromptTokens += u.PromptTokens
	m.t.CompletionTokens += u.CompletionTokens
	m.t.CachedTokens += u.CachedTokens
	m.t.CostUSD += u.CostUSD
}

func (m *meter) hit()   { m.mu.Lock(); m.t.CacheHits++; m.mu.Unlock() }
func (m *meter) retry() { m.mu.Lock(); m.t.Retries++; m.mu.Unlock() }
func (m *meter) fail()  { m.mu.Lock(); m.t.Failures++; m.mu.Unlock() }

func (m *meter) budget(cfg Config) Budget {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := Budget{MaxCostUSD: cfg.MaxCostUSD, MaxTokens: cfg.MaxTokens,
		SpentUSD:    m.spentUSD + m.t.CostUSD,
		SpentTokens: m.spentTokens + m.t.PromptTokens + m.t.CompletionTokens}
	b.Reached = (b.MaxCostUSD > 0 && b.SpentUSD >= b.MaxCostUSD) || (b.MaxTokens > 0 && b.SpentTokens >= b.MaxTokens)
	return b
}

// check returns a budget error once a limit is reached. Calls already in
// flight finish, so the spend may pass the limit by up to one reply per
// concurrent request.
func (m *meter) check(cfg Config) error {
	b := m.budget(cfg)
	if !b.Reached {
		return nil
	}
	e := &budgetError{spentUSD: b.SpentUSD, spentTokens: b.SpentTokens}
	if b.MaxCostUSD > 0 && b.SpentUSD >= b.MaxCostUSD {
		e.limit = "llm.max_cost_usd"
	} else {
		e.limit = "llm.max_tokens"
	}
	return e
}

// Totals returns what the client has done so far.
func (c *Client) Totals() Totals {
	c.meter.mu.Lock()
	defer c.meter.mu.Unlock()
	return c.meter.t
}

// Budget returns the spending limits and what has been spent.
func (c *Client) Budget() Budget { return c.meter.budget(c.cfg) }

// Err returns the first error that should stop the run — a fatal endpoint
// error (bad key, URL or model) or the spent budget — or nil while there is
// none. Rollouts record such errors as text; the run checks Err to stop
// taking work.
func (c *Client) Err() error {
	c.meter.mu.Lock()
	defer c.meter.mu.Unlock()
	return c.meter.fatal
}
