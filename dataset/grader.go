package dataset

import (
	"bytes"
	"fmt"
	"io"
	"text/tabwriter"
)

// GraderRow is how one template's checks (or the LLM writer's, as
// "llm") fared as a grader when its tasks were proven: the wrong
// solutions of the battery tried on its tasks and how many the checks
// rejected, the stale answers among them (the truth moved) and how many
// were rejected, the tasks no perturbation moved, and the tasks dropped
// because a wrong solution passed. The accuracy of the kept tasks'
// checks on those cases is 100% by construction; Rejected over Wrong is
// the checks' accuracy before the drops.
type GraderRow struct {
	Generator     string `json:"generator"`
	Tasks         int    `json:"tasks"`
	Wrong         int    `json:"wrong"`
	Rejected      int    `json:"rejected"`
	Stale         int    `json:"stale"`
	StaleRejected int    `json:"stale_rejected"`
	Unmoved       int    `json:"unmoved"`
	Dropped       int    `json:"dropped"`
}

// graderHead is the grader table's head, in Markdown.
const graderHead = "| generator | tasks proven | wrong solutions tried | rejected | stale tried | stale rejected | truth unmoved | tasks dropped |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"

// GraderMarkdown renders rows as the grader-accuracy section of
// tasks.report.md and the dataset card; empty when there are none.
func GraderMarkdown(rows []GraderRow) string {
	if len(rows) == 0 {
		return ""
	}
	var b bytes.Buffer
	b.WriteString("## Grader accuracy\n\nEach task's checks were run on the battery of wrong solutions made from its reference (output tables with wrong values, the answer's expected numbers zeroed, off by one or swapped, the answer computed on perturbed inputs) and its template's mutant; a task whose checks passed one was dropped. Correct solutions by another method are not run here.\n\n")
	b.WriteString(graderHead)
	var sum GraderRow
	for _, r := range rows {
		writeGraderRow(&b, r)
		sum.Tasks += r.Tasks
		sum.Wrong += r.Wrong
		sum.Rejected += r.Rejected
		sum.Stale += r.Stale
		sum.StaleRejected += r.StaleRejected
		sum.Unmoved += r.Unmoved
		sum.Dropped += r.Dropped
	}
	sum.Generator = "**all**"
	writeGraderRow(&b, sum)
	b.WriteString("\n")
	return b.String()
}

func writeGraderRow(w io.Writer, r GraderRow) {
	fmt.Fprintf(w, "| %s | %d | %d | %d (%s) | %d | %d | %d | %d |\n", mdCell(r.Generator), r.Tasks, r.Wrong, r.Rejected, percent(r.Rejected, r.Wrong), r.Stale, r.StaleRejected, r.Unmoved, r.Dropped)
}

func percent(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

// writeGraderText writes rows for synth stats.
func writeGraderText(w io.Writer, rows []GraderRow) error {
	if len(rows) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\ngrader accuracy (wrong solutions of the battery rejected by each generator's checks):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  generator\ttasks\twrong\trejected\tstale\tstale rejected\tunmoved\tdropped")
	for _, r := range rows {
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d (%s)\t%d\t%d\t%d\t%d\n", r.Generator, r.Tasks, r.Wrong, r.Rejected, percent(r.Rejected, r.Wrong), r.Stale, r.StaleRejected, r.Unmoved, r.Dropped)
	}
	return tw.Flush()
}
