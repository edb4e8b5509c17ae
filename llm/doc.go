// Package llm is synth's OpenAI-compatible chat client: endpoints, retries,
// rate limits, a response cache, and usage and cost accounting.
//
// It wraps go-openai's client with its own HTTP layer, which sets the body
// fields go-openai cannot send (temperature 0, top_k, chat_template_kwargs
// and any other extra field), bounds every attempt by a timeout, retries
// 429, 408, 5xx, dropped connections and replies that are not chat
// completions with the backoff, jitter and Retry-After of synth's one retry
// policy, internal/pacer (a timed-out request is never sent again: the server may still be computing it), and answers
// repeated requests from a content-addressed cache.
//
// Client.Preflight checks each endpoint with one cheap request before a run.
// Each endpoint's concurrency adapts to how it copes (adaptive.go), and a
// circuit breaker pauses, then stops, a client whose requests keep failing
// for infrastructure reasons (breaker.go).
//
// Errors are classified by what to do about them: *Error has Retry, Fatal
// and ContextLength (a bad key, URL or model stops the run, with the fix in
// the message; a conversation too long for the model ends that rollout
// only); IsBudget tells a spent budget, which ends the run cleanly so that
// a rerun with a larger budget resumes. Package llmtest is a fake endpoint
// for tests.
package llm
