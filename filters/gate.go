package filters

import (
	"fmt"
	"regexp"
	"strings"

	"synth/schemas"
	"synth/tokens"
)

// Reasons Gate drops a trajectory for.
const (
	ReasonMissingPackage = "missing_package" // an environment error, not data
	ReasonNotFinished    = "not_finished"    // the last assistant turn does not start with the prefix
	ReasonTooFewTurns    = "too_few_turns"
	ReasonTooManyTurns   = "too_many_turns"
	ReasonFailedCells    = "failed_cells"
	ReasonTooFewTokens   = "too_few_tokens"
	ReasonTooManyTokens  = "too_many_tokens"
)

// missingModule matches Python's report of a module that is not installed.
var missingModule = regexp.MustCompile(`(?:ModuleNotFoundError|ImportError): No module named '?([\w.]+)'?`)

// Gate applies the quality gates of cfg.Gate to a trajectory, cheapest
// first: no observation may show a missing Python package; the last
// assistant message must start with "Finished:"; the assistant turns and the
// share of failed cells must be in range; and the tokens, counted offline,
// must be in range. A failing trajectory gets a reason and a detail (the
// measured value, or the missing module).
func Gate(cfg Config, tr *schemas.Trajectory) (ok bool, reason, detail string) {
	c := cfg.Gate.WithDefaults()
	if mod := missingPackage(tr); mod != "" {
		return false, ReasonMissingPackage, "No module named " + mod
	}
	turns, last := 0, ""
	for _, m := range tr.Messages {
		if m.Role == schemas.RoleAssistant {
			turns++
			last = m.Content
		}
	}
	if !strings.HasPrefix(strings.TrimSpace(last), c.FinishedPrefix) {
		return false, ReasonNotFinished, fmt.Sprintf("last assistant turn starts %q", clip(strings.TrimSpace(last), 40))
	}
	if turns < c.MinTurns {
		return false, ReasonTooFewTurns, fmt.Sprintf("%d turns < %d", turns, c.MinTurns)
	}
	if c.MaxTurns > 0 && turns > c.MaxTurns {
		return false, ReasonTooManyTurns, fmt.Sprintf("%d turns > %d", turns, c.MaxTurns)
	}
	if failed := failedCells(tr.Steps); len(tr.Steps) > 0 && float64(failed)/float64(len(tr.Steps)) > c.MaxFailedCells {
		return false, ReasonFailedCells, fmt.Sprintf("%d of %d cells failed", failed, len(tr.Steps))
	}
	n := tokens.Messages(tr.Messages)
	if n < c.MinTokens {
		return false, ReasonTooFewTokens, fmt.Sprintf("%d tokens < %d", n, c.MinTokens)
	}
	if n > c.MaxTokens {
		return false, ReasonTooManyTokens, fmt.Sprintf("%d tokens > %d", n, c.MaxTokens)
	}
	return true, "", ""
}

func failedCells(steps []schemas.Step) int {
	n := 0
	for _, s := range steps {
		if s.Status != schemas.StatusOK {
			n++
		}
	}
	return n
}

// missingPackage returns the module a cell's observation says is missing,
// looking at the recorded steps and at tool messages.
func missingPackage(tr *schemas.Trajectory) string {
	for _, s := range tr.Steps {
		if m := missingModule.FindStringSubmatch(s.Observation); m != nil {
			return m[1]
		}
	}
	for _, m := range tr.Messages {
		if m.Role == schemas.RoleTool {
			if mm := missingModule.FindStringSubmatch(m.Content); mm != nil {
				return mm[1]
			}
		}
	}
	return ""
}
