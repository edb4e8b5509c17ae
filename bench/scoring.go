package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Scoring modes: how synth eval turns a rollout into a verdict.
const (
	// ScoringStrict is synth's own: a rollout passes only if it finished
	// with a final answer within the turn cap and every check passes; the
	// conversation is synth's (tracebacks in observations, one nudge when a
	// reply has neither code nor answer). The default for built benchmarks.
	ScoringStrict = "strict"
	// ScoringPyBench reproduces PyBench's harness: its prompts and
	// observation texts, at most 10 turns, a reply without code ends the
	// rollout, and the unit tests run on whatever the rollout left, however
	// it stopped. The default for benchmarks imported from PyBench.
	ScoringPyBench = "pybench"
)

// SettingsFile is the benchmark's own settings for synth eval.
const SettingsFile = "bench.json"

// Settings is bench.json.
type Settings struct {
	// Scoring is the mode synth eval scores the benchmark with unless told
	// otherwise.
	Scoring string `json:"scoring"`
}

// CheckScoring returns an error for a mode that is not known.
func CheckScoring(mode string) error {
	switch mode {
	case ScoringStrict, ScoringPyBench:
		return nil
	}
	return fmt.Errorf("scoring mode %q is not known (want %s or %s)", mode, ScoringStrict, ScoringPyBench)
}

// ReadScoring returns the scoring mode the benchmark in dir asks for:
// bench.json's, or ScoringStrict for a benchmark without one.
func ReadScoring(dir string) (string, error) {
	path := filepath.Join(dir, SettingsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ScoringStrict, nil
	}
	if err != nil {
		return "", fmt.Errorf("bench: %w", err)
	}
	var s Settings
	if err := json.Unmarshal(b, &s); err != nil {
		return "", fmt.Errorf("bench %s: %w (want {\"scoring\": \"%s\"|\"%s\"})", path, err, ScoringStrict, ScoringPyBench)
	}
	if s.Scoring == "" {
		return ScoringStrict, nil
	}
	if err := CheckScoring(s.Scoring); err != nil {
		return "", fmt.Errorf("bench %s: %w", path, err)
	}
	return s.Scoring, nil
}
