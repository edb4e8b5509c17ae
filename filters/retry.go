package filters

import "synth/schemas"

// Reasons a trajectory is dropped outside the failure taxonomy.
const (
	// ReasonInfra drops a rollout whose infrastructure failed on every try:
	// it says nothing about the task or the teacher's skill.
	ReasonInfra = "infra_error"
)

// IsInfra reports whether a failure word (schemas.Fail…) or drop reason is
// an infrastructure error: it is retried, and never counted as a task
// failure.
func IsInfra(failure string) bool {
	switch failure {
	case schemas.FailSandboxCrash, schemas.FailTeacherError, ReasonInfra:
		return true
	}
	return false
}

// ShouldRetry reports whether a rollout that failed with failure on its
// attempt-th try (1 for the first) is run again.
func (c Config) ShouldRetry(failure string, attempt int) bool {
	return Retryable(failure) && attempt <= c.Retries()
}

// Retryable reports whether a rollout that failed with failure is worth
// another try, while Config.Retries allows one: an infrastructure failure,
// but not one already given up on (ReasonInfra).
func Retryable(failure string) bool {
	return IsInfra(failure) && failure != ReasonInfra
}
