package llm

import (
	"strings"
	"time"
)

// Config is the llm section of synth.yaml: the endpoints synth talks to,
// how hard it may push them, and what it may spend.
type Config struct {
	Endpoints []Endpoint `yaml:"endpoints" json:"endpoints"`
	// Timeout bounds one HTTP attempt, reading the whole reply included;
	// default 10m. A request that times out is not sent again (the server
	// may still be computing it): its rollout is redone by the next run.
	Timeout time.Duration `yaml:"timeout" json:"timeout"`
	// MaxRetries is how many times a request is retried after a 429, a 5xx,
	// a timeout or a dropped connection; default 6. Negative: never.
	MaxRetries int `yaml:"max_retries" json:"max_retries"`
	// Extra are body fields sent with every request (top_k,
	// repetition_penalty, chat_template_kwargs, …); an endpoint's own Extra
	// and a request's override them key by key.
	Extra map[string]any `yaml:"extra" json:"extra"`
	// Prices maps a model name to its price; a model without one costs 0.
	Prices map[string]Price `yaml:"prices" json:"prices"`
	// MaxCostUSD stops the run cleanly once this much has been spent; 0: no limit.
	MaxCostUSD float64 `yaml:"max_cost_usd" json:"max_cost_usd"`
	// MaxTokens stops the run cleanly once this many tokens (prompt and
	// completion) have been used; 0: no limit.
	MaxTokens int64 `yaml:"max_tokens" json:"max_tokens"`
	// MaxReplyBytes bounds one reply's body; a longer reply is never read
	// whole, and the call fails with an *Error whose ReplyTooLong is true.
	// Default 16 MiB.
	MaxReplyBytes int64 `yaml:"max_reply_bytes" json:"max_reply_bytes"`
	// BreakerFailures is how many infrastructure failures in a row (refused
	// connections, timeouts, 5xx, replies that are not chat completions)
	// pause every request for BreakerPause; as many again stop the run.
	// Defaults 12 and 30s.
	BreakerFailures int           `yaml:"breaker_failures" json:"breaker_failures,omitempty"`
	BreakerPause    time.Duration `yaml:"breaker_pause" json:"breaker_pause,omitempty"`
	// NoCache turns the response cache off (it is on by default when the
	// run has a cache directory).
	NoCache bool `yaml:"no_cache" json:"no_cache"`
}

// Endpoint is one OpenAI-compatible server. Several endpoints with the same
// model share its load.
type Endpoint struct {
	// BaseURL is the API root, e.g. https://api.openai.com/v1 or
	// http://127.0.0.1:8000/v1; empty: $OPENAI_BASE_URL, else OpenAI's.
	BaseURL string `yaml:"base_url" json:"base_url"`
	// Model is the model name sent in every request; required.
	Model string `yaml:"model" json:"model"`
	// KeyEnv names the environment variable that holds the API key
	// (default OPENAI_API_KEY; unset or empty: no key, for local servers).
	// The key itself is never written to any file synth writes.
	KeyEnv string `yaml:"key_env" json:"key_env"`
	// Concurrency caps the requests in flight to this endpoint; default 16.
	// The client starts there and adapts: it backs off on timeouts, 429s
	// and replies slowed by queueing, and grows back while the endpoint
	// keeps up.
	Concurrency int `yaml:"concurrency" json:"concurrency"`
	// RPM and TPM cap requests and tokens per minute; 0: no limit.
	RPM int `yaml:"rpm" json:"rpm"`
	TPM int `yaml:"tpm" json:"tpm"`
	// Extra are body fields for this endpoint only.
	Extra map[string]any `yaml:"extra" json:"extra"`
}

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input       float64 `yaml:"input" json:"input"`               // dollars per million input tokens
	CachedInput float64 `yaml:"cached_input" json:"cached_input"` // default: Input
	Output      float64 `yaml:"output" json:"output"`             // dollars per million output tokens
}

// DefaultBaseURL is the base URL of an endpoint that names none, as the
// OpenAI SDKs choose it: $OPENAI_BASE_URL, else OpenAI's API.
func DefaultBaseURL(getenv func(string) string) string {
	if u := strings.TrimSpace(getenv(BaseURLEnv)); u != "" {
		return u
	}
	return OpenAIBaseURL
}

// The OpenAI SDKs' conventions: where the API is, and the variable that
// may move it.
const (
	OpenAIBaseURL = "https://api.openai.com/v1"
	BaseURLEnv    = "OPENAI_BASE_URL"
)

// Defaults used where a Config field is zero.
const (
	DefaultTimeout     = 10 * time.Minute
	DefaultMaxRetries  = 6
	DefaultConcurrency = 16
	DefaultKeyEnv      = "OPENAI_API_KEY"
	DefaultMaxReply    = 16 << 20
)

// Cost returns the price of a call's usage.
func (p Price) Cost(prompt, cached, completion int64) float64 {
	ci := p.CachedInput
	if ci == 0 {
		ci = p.Input
	}
	if cached > prompt {
		cached = prompt
	}
	return (float64(prompt-cached)*p.Input + float64(cached)*ci + float64(completion)*p.Output) / 1e6
}
