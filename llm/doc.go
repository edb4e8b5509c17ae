// Package llm is synth's OpenAI-compatible chat client: endpoints, retries,
// rate limits, a response cache, and usage and cost accounting.
//
// It wraps go-openai's client with its own HTTP layer, which sets the body
// fields go-openai cannot send (temperature 0, top_k, chat_template_kwargs
// and any other extra field), bounds every attempt by a timeout, retries
// 429, 408, 5xx, timeouts and dropped connections with backoff, jitter and
// Retry-After, and answers repeated requests from a content-addressed cache.
//
// Errors are classified by what to do about them: *Error has Retry and
// Fatal (a bad key, URL or model stops the run, with the fix in the
// message); IsBudget tells a spent budget, which ends the run cleanly so
// that a rerun with a larger budget resumes. Package llmtest is a fake
// endpoint for tests.
package llm
