package dataset

import (
	"bytes"
	"fmt"
	"strings"
)

// TasksCard is how a dataset's tasks were written and proven, for the card
// and stats.json.
type TasksCard struct {
	Writer string `json:"writer"` // template, or llm:<model>
	// Proof says what was run in the sandbox before a task counted; empty
	// when nothing was.
	Proof string `json:"proof,omitempty"`
	// The LLM writer's counts: drafts asked for, tasks kept (and of those
	// proven, repaired), drafts dropped by reason, and drafts lost to a
	// failed request (redone by the next run).
	Drafts         int            `json:"drafts,omitempty"`
	Kept           int            `json:"kept,omitempty"`
	Proven         int            `json:"proven,omitempty"`
	Repaired       int            `json:"repaired,omitempty"`
	Dropped        map[string]int `json:"dropped,omitempty"`
	FailedRequests int            `json:"failed_requests,omitempty"`
	// Grader is how each generator's checks fared against the battery of
	// wrong solutions when the tasks were proven.
	Grader []GraderRow `json:"grader,omitempty"`
}

// writeTasks renders the Tasks section; nil leaves it out.
func writeTasks(w *bytes.Buffer, t *TasksCard) {
	if t == nil {
		return
	}
	w.WriteString("## Tasks\n\n")
	fmt.Fprintf(w, "Written by `%s`.", t.Writer)
	if t.Proof != "" {
		fmt.Fprintf(w, " Each task was proven in the sandbox before any rollout: %s.", t.Proof)
	} else {
		w.WriteString(" The tasks were not proven in the sandbox before their rollouts.")
	}
	w.WriteString("\n\n")
	w.WriteString(strings.Replace(GraderMarkdown(t.Grader), "## ", "### ", 1))
	if t.Drafts == 0 {
		return
	}
	w.WriteString("| drafts | kept | proven | repaired | failed requests |\n|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(w, "| %d | %d | %d | %d | %d |\n\n", t.Drafts, t.Kept, t.Proven, t.Repaired, t.FailedRequests)
	if len(t.Dropped) > 0 {
		w.WriteString("| dropped because | drafts |\n|---|---:|\n")
		for _, k := range sortedKeys(t.Dropped) {
			fmt.Fprintf(w, "| %s | %d |\n", mdCell(strings.ReplaceAll(k, "_", " ")), t.Dropped[k])
		}
		w.WriteString("\n")
	}
}
