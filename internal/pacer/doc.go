// Package pacer is synth's one retry and backoff policy, shared by every
// caller that tries again: the LLM transport, the HTTP client of the
// network sources (downloads, Kaggle and arXiv calls), and the journaled
// runner's retries of a rollout whose infrastructure failed (runner.Retry). It owns how
// many tries a call gets, the wait between them (exponential, capped,
// jittered, or a schedule the caller gives), the server's Retry-After
// (seconds or an HTTP date), and cancellation through the context. What is
// worth another try is decided by the caller, which marks an error with
// Retry. The clock, the sleep and the jitter can be replaced, so tests are
// deterministic. It imports nothing of synth.
package pacer
