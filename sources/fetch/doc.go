// Package fetch is the HTTP client the network sources share: a request
// rate limit, retries of 429, 5xx and transport errors with backoff and
// Retry-After, and errors classified as retryable or fatal.
package fetch
