// Package filters decides which rollouts become data: verification verdicts,
// dedup, decontamination and quality gates, each counted with reasons.
package filters
