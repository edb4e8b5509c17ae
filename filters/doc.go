// Package filters decides which rollouts become data: verification verdicts,
// dedup, decontamination and quality gates, each counted with reasons.
//
// The pipeline runs the stages in the order of the Stage… constants and
// counts every item in a Funnel: Verify (the task's checks; infrastructure
// failures retried per Config.ShouldRetry), Dedup.Keep and
// Dedup.KeepTrajectory, Decon.Check against the benchmark, then Gate. Every
// drop carries a stable reason word and what it matched; Funnel.LogTo keeps
// them all, and the funnel renders as JSON and Markdown for the dataset card.
package filters
