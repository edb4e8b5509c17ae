package llm

import (
	"context"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"golang.org/x/time/rate"
)

// endpoint is one configured server with its limiters and go-openai client.
type endpoint struct {
	adaptive // guarded by its pool's mutex
	cfg      Endpoint
	name     string // the base URL: how errors and trajectories name it
	keyEnv   string
	key      string // never logged or written
	api      *openai.Client
	rpm      *rate.Limiter // nil: no limit
	tpm      *rate.Limiter
}

func newLimiter(perMinute int) *rate.Limiter {
	if perMinute <= 0 {
		return nil
	}
	// A minute's worth may go at once; after that the rate holds.
	return rate.NewLimiter(rate.Limit(float64(perMinute)/60), perMinute)
}

func (e *endpoint) waitRequest(ctx context.Context) error {
	if e.rpm == nil {
		return nil
	}
	return e.rpm.Wait(ctx)
}

func (e *endpoint) waitTokens(ctx context.Context, n int) error {
	if e.tpm == nil {
		return nil
	}
	return e.tpm.WaitN(ctx, min(n, e.tpm.Burst()))
}

// chargeTokens books tokens used beyond the estimate made before sending,
// so later requests wait for them.
func (e *endpoint) chargeTokens(n int) {
	if e.tpm == nil || n <= 0 {
		return
	}
	e.tpm.ReserveN(time.Now(), min(n, e.tpm.Burst()))
}

// pool balances requests over the endpoints serving one model: a request
// takes the endpoint with the most room under its current concurrency
// limit, or waits for one. The limits adapt to how each endpoint copes (see
// adaptive), so no endpoint exceeds its configured concurrency and a slow
// one is not sent more than it can compute.
type pool struct {
	mu   sync.Mutex
	eps  []*endpoint
	wake chan struct{} // closed and replaced whenever a slot frees
}

func newPool(eps []*endpoint) *pool {
	for _, e := range eps {
		e.adaptive = newAdaptive(concurrency(e.cfg))
	}
	return &pool{eps: eps, wake: make(chan struct{})}
}

func concurrency(e Endpoint) int {
	if e.Concurrency > 0 {
		return e.Concurrency
	}
	return DefaultConcurrency
}

// capacity is the configured concurrency of the pool's endpoints together.
func (p *pool) capacity() int {
	n := 0
	for _, e := range p.eps {
		n += e.max
	}
	return n
}

func (p *pool) acquire(ctx context.Context) (*endpoint, error) {
	for {
		p.mu.Lock()
		var best *endpoint
		for _, e := range p.eps {
			if e.inFlight < e.allowed() && (best == nil || e.load() < best.load()) {
				best = e
			}
		}
		if best != nil {
			best.inFlight++
			p.mu.Unlock()
			return best, nil
		}
		wake := p.wake
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// release frees e's slot and adapts its limit to how the request went.
func (p *pool) release(e *endpoint, o outcome) {
	p.mu.Lock()
	e.inFlight--
	e.adapt(o)
	close(p.wake)
	p.wake = make(chan struct{})
	p.mu.Unlock()
}

// limits returns each endpoint's current concurrency limit.
func (p *pool) limits() map[string]float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := map[string]float64{}
	for _, e := range p.eps {
		m[e.name] = e.limit
	}
	return m
}
