package llm

import (
	"context"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"golang.org/x/time/rate"
)

// endpoint is one configured server with its limiters and go-openai client.
type endpoint struct {
	cfg    Endpoint
	name   string // the base URL: how errors and trajectories name it
	keyEnv string
	key    string // never logged or written
	api    *openai.Client
	rpm    *rate.Limiter // nil: no limit
	tpm    *rate.Limiter
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

// pool balances requests over the endpoints serving one model. It holds one
// token per concurrency slot, interleaved across endpoints, so a request
// takes the endpoint whose slot freed first and no endpoint exceeds its
// concurrency.
type pool struct {
	slots chan *endpoint
}

func newPool(eps []*endpoint) *pool {
	total := 0
	for _, e := range eps {
		total += concurrency(e.cfg)
	}
	p := &pool{slots: make(chan *endpoint, total)}
	for i := 0; len(p.slots) < total; i++ {
		for _, e := range eps {
			if i < concurrency(e.cfg) {
				p.slots <- e
			}
		}
	}
	return p
}

func concurrency(e Endpoint) int {
	if e.Concurrency > 0 {
		return e.Concurrency
	}
	return DefaultConcurrency
}

func (p *pool) acquire(ctx context.Context) (*endpoint, error) {
	select {
	case e := <-p.slots:
		return e, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pool) release(e *endpoint) { p.slots <- e }
