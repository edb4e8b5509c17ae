package runinfo

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"synth/generators/writer"
)

// WriterCounts is what became of the LLM writer's drafts, as run.json and
// the summary report it.
type WriterCounts struct {
	Model string `json:"model"`
	// Proof says what ran in the sandbox before a task counted.
	Proof string `json:"proof"`
	writer.Stats
}

// Note is the counts as one line: how tasks were proven, repaired and
// dropped.
func (wc *WriterCounts) Note() string {
	if wc.Proof == "" {
		return "not proven in the sandbox; " + wc.CountsNote()
	}
	return wc.CountsNote() + "; proof: " + wc.Proof
}

// CountsNote is the repaired, dropped and failed counts as one line.
func (wc *WriterCounts) CountsNote() string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%d proven, %d repaired", wc.Proven, wc.Repaired))
	if wc.Proven > 0 {
		p := fmt.Sprintf("%d also on perturbed inputs", wc.Perturbed)
		if len(wc.Unperturbed) > 0 {
			p += " (not perturbed: " + CountsNote(wc.Unperturbed) + ")"
		}
		parts = append(parts, p)
	}
	dropped := "none"
	if len(wc.Dropped) > 0 {
		dropped = CountsNote(wc.Dropped)
	}
	parts = append(parts, "dropped: "+dropped)
	parts = append(parts, fmt.Sprintf("%d failed requests", wc.Failed))
	if wc.Failed > 0 {
		parts[len(parts)-1] += " (run the same command again to redo them)"
	}
	return strings.Join(parts, "; ")
}

// CountsNote lists counts by name, in name order: "csv 5, txt 1".
func CountsNote(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
