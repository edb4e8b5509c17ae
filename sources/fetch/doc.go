// Package fetch is the HTTP client the network sources share: a request
// rate limit and one pacing limiter per host for the process, retries of
// 429, 5xx and transport errors with backoff and Retry-After (the policy
// of internal/pacer, which the LLM transport shares), an idle
// timeout instead of a limit on a request's total time, errors classified
// as retryable or fatal, and Download, which resumes cut bodies with Range
// and checks the hash storage sends.
package fetch
