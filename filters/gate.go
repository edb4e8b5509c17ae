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
// assistant message must be a final answer (start with "Finished:", or in
// the openai-tools format be a reply without a tool call); the assistant turns and the
// share of failed cells must be in range; and the tokens, counted offline,
// must be in range. A failing trajectory gets a reason and a detail (the
// measured value, or the missing module).
func Gate(cfg Config, tr *schemas.Trajectory) (ok bool, reason, detail string) {
	c := cfg.Gate.WithDefaults()
	if mod := missingPackage(tr); mod != "" {
		return false, ReasonMissingPackage, "No module named " + mod
	}
	turns, last := 0, schemas.Message{}
	for _, m := range tr.Messages {
		if m.Role == schemas.RoleAssistant {
			turns++
			last = m
		}
	}
	if why := notFinished(c, tr, last); why != "" {
		return false, ReasonNotFinished, why
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

// toolsFormat is the name of the openai-tools format (agent.Tools), whose
// final answer is a reply without a tool call rather than a "Finished:"
// line.
const toolsFormat = "openai-tools"

// notFinished says why the last assistant message is not a final answer,
// or returns "" when it is: in the openai-tools format a non-empty reply
// without a tool call from a rollout that finished, in the others a reply
// starting with the prefix.
func notFinished(c GateConfig, tr *schemas.Trajectory, last schemas.Message) string {
	text := strings.TrimSpace(last.Content)
	if tr.Teacher.Format == toolsFormat {
		switch {
		case len(last.ToolCalls) > 0:
			return "last assistant turn is a tool call"
		case text == "":
			return "last assistant turn is empty"
		case tr.StopReason != "" && tr.StopReason != schemas.StopFinished:
			return "the rollout stopped: " + tr.StopReason
		}
		return ""
	}
	if !strings.HasPrefix(text, c.FinishedPrefix) {
		return fmt.Sprintf("last assistant turn starts %q", clip(text, 40))
	}
	return ""
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
