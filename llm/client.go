package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Client sends chat requests to the configured endpoints. It is safe for
// concurrent use; one Client serves a whole run.
type Client struct {
	cfg          Config
	pools        map[string]*pool // by model
	defaultModel string
	endpoints    []*endpoint
	meter        meter
	doer         HTTPDoer
	log          *slog.Logger
}

// Option adjusts a Client beyond its Config.
type Option func(*options)

type options struct {
	cacheDir string
	doer     HTTPDoer
	getenv   func(string) string
	base     time.Duration
	max      time.Duration
	spentUSD float64
	spentTok int64
	log      *slog.Logger
}

// WithCache keeps the response cache in dir (the run's cache/llm).
func WithCache(dir string) Option { return func(o *options) { o.cacheDir = dir } }

// WithHTTPClient sends requests through d instead of a new http.Client.
func WithHTTPClient(d HTTPDoer) Option { return func(o *options) { o.doer = d } }

// WithGetenv reads API keys through getenv instead of os.Getenv.
func WithGetenv(getenv func(string) string) Option { return func(o *options) { o.getenv = getenv } }

// WithBackoff sets the first and the largest wait between retries
// (default 1s and 60s); a server's Retry-After still wins when longer.
func WithBackoff(first, max time.Duration) Option {
	return func(o *options) { o.base, o.max = first, max }
}

// WithSpent starts the budget from what earlier, resumed parts of the run
// already spent.
func WithSpent(costUSD float64, tokens int64) Option {
	return func(o *options) { o.spentUSD, o.spentTok = costUSD, tokens }
}

// WithLogger logs retries and failures to l.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// New checks cfg and makes a Client. An error names the config key to fix.
func New(cfg Config, opts ...Option) (*Client, error) {
	o := options{getenv: os.Getenv, base: time.Second, max: time.Minute, log: slog.New(slog.DiscardHandler)}
	for _, opt := range opts {
		opt(&o)
	}
	if len(cfg.Endpoints) == 0 {
		return nil, errors.New("llm: no endpoint configured (set llm.endpoints, or --base-url and --model)")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxReplyBytes <= 0 {
		cfg.MaxReplyBytes = DefaultMaxReply
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	cfg.MaxRetries = max(cfg.MaxRetries, 0)
	if cfg.BreakerFailures <= 0 {
		cfg.BreakerFailures = DefaultBreakerFailures
	}
	if cfg.BreakerPause <= 0 {
		cfg.BreakerPause = DefaultBreakerPause
	}
	c := &Client{cfg: cfg, pools: map[string]*pool{}, log: o.log}
	brk := &breaker{threshold: cfg.BreakerFailures, pause: cfg.BreakerPause, log: o.log}
	c.meter.spentUSD, c.meter.spentTokens = o.spentUSD, o.spentTok
	var ch *cache
	if o.cacheDir != "" && !cfg.NoCache {
		ch = &cache{dir: o.cacheDir}
	}
	doer := o.doer
	if doer == nil {
		total := 0
		for _, e := range cfg.Endpoints {
			total += concurrency(e)
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConns = total + 16
		tr.MaxIdleConnsPerHost = total + 16
		tr.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		doer = &http.Client{Transport: tr}
	}
	c.doer = doer
	byModel := map[string][]*endpoint{}
	var models []string
	for i, ec := range cfg.Endpoints {
		if ec.BaseURL == "" {
			ec.BaseURL = DefaultBaseURL(o.getenv)
		}
		if ec.Model == "" {
			return nil, fmt.Errorf("llm.endpoints[%d] (%s): model is empty", i, ec.BaseURL)
		}
		if ec.RPM < 0 || ec.TPM < 0 || ec.Concurrency < 0 {
			return nil, fmt.Errorf("llm.endpoints[%d] (%s): rpm, tpm and concurrency must not be negative", i, ec.BaseURL)
		}
		keyEnv := ec.KeyEnv
		if keyEnv == "" {
			keyEnv = DefaultKeyEnv
		}
		e := &endpoint{cfg: ec, name: strings.TrimRight(ec.BaseURL, "/"), keyEnv: keyEnv, rpm: newLimiter(ec.RPM), tpm: newLimiter(ec.TPM)}
		e.key = o.getenv(keyEnv)
		oc := openai.DefaultConfig(e.key)
		oc.BaseURL = e.name
		oc.HTTPClient = &transport{ep: e, next: doer, cache: ch, timeout: cfg.Timeout, retries: cfg.MaxRetries, maxReply: cfg.MaxReplyBytes,
			base: o.base, max: o.max, brk: brk, onRetry: func() { c.meter.retry() }, log: o.log}
		e.api = openai.NewClientWithConfig(oc)
		c.endpoints = append(c.endpoints, e)
		if byModel[ec.Model] == nil {
			models = append(models, ec.Model)
		}
		byModel[ec.Model] = append(byModel[ec.Model], e)
	}
	for m, eps := range byModel {
		c.pools[m] = newPool(eps)
	}
	c.defaultModel = models[0]
	return c, nil
}

// CacheDir is the conventional cache directory under a run directory.
func CacheDir(runDir string) string { return filepath.Join(runDir, "cache", "llm") }

// Model is the model requests go to when they name none: the first
// endpoint's.
func (c *Client) Model() string { return c.defaultModel }

// Endpoints lists the base URLs of the endpoints serving model ("" for the
// default model).
func (c *Client) Endpoints(model string) []string {
	if model == "" {
		model = c.defaultModel
	}
	var out []string
	for _, e := range c.endpoints {
		if e.cfg.Model == model {
			out = append(out, e.name)
		}
	}
	return out
}

// Slots is how many requests the client runs at once for model ("" for the
// default): the sum of its endpoints' concurrency. Size rollout workers to it.
func (c *Client) Slots(model string) int {
	if model == "" {
		model = c.defaultModel
	}
	if p := c.pools[model]; p != nil {
		return p.capacity()
	}
	return 0
}

// Limits returns the current concurrency limit of each endpoint serving
// model ("" for the default), by base URL. Each starts at the configured
// concurrency and adapts to how the endpoint copes.
func (c *Client) Limits(model string) map[string]float64 {
	if model == "" {
		model = c.defaultModel
	}
	if p := c.pools[model]; p != nil {
		return p.limits()
	}
	return nil
}
