// Package runner runs a journaled stage's jobs: it skips the jobs an
// earlier run finished (resume), does the rest over a pool of workers,
// hands every result to one recorder goroutine, reports progress on one
// status line, and, after an interrupt, lets the jobs in flight finish for
// a grace period before it abandons them. What a job is, what it produces
// and how a result is recorded are the caller's (build's rollouts and
// benchmark proofs, eval's scored rollouts), plugged in through Work.
// Retry runs a try again through internal/pacer, the project's one retry
// policy. It imports nothing of synth but internal/pacer.
package runner
