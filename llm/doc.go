// Package llm is synth's OpenAI-compatible chat client: endpoints, retries,
// rate limits, a response cache, and usage and cost accounting.
package llm
