package dataset

import (
	"bytes"
	"fmt"

	"synth/schemas"
)

// writeHygiene writes the card's hygiene section: how many trajectories
// that passed verification had each habit a model would learn from them,
// and how alike the kept rows' openings are.
func writeHygiene(w *bytes.Buffer, h *schemas.HygieneReport) {
	if h == nil {
		return
	}
	w.WriteString("## Hygiene\n\n")
	fmt.Fprintf(w, "Of the %d trajectories that passed verification and the quality gates, the share with each habit a model would learn from them; the hygiene gate drops them (reason in the drop log) unless its setting (`filters.hygiene`) turns the check off.\n\n", h.Checked)
	w.WriteString("| habit | trajectories | rate |\n|---|---:|---:|\n")
	for _, x := range []struct {
		name string
		n    int64
	}{
		{fmt.Sprintf("%d or more identical consecutive code cells", h.RepeatedCellsAt), h.RepeatedCells},
		{fmt.Sprintf("the same error %d or more times (a loop)", h.ErrorLoopAt), h.ErrorLoops},
		{fmt.Sprintf("an assistant turn %d or more times", h.RepeatedTurnsAt), h.RepeatedTurns},
	} {
		fmt.Fprintf(w, "| %s | %d | %.1f%% |\n", x.name, x.n, 100*h.Rate(x.n))
	}
	fmt.Fprintf(w, "\nTemplated openings: the most common opening (the first %d words of the first assistant turn) begins %d of the %d rows (%.1f%%)", h.OpeningWords, h.TopOpeningRows, h.Kept, 100*h.TopOpeningShare())
	if h.TopOpening != "" {
		fmt.Fprintf(w, ": `%s`", mdCell(h.TopOpening))
	}
	if h.MaxOpeningShare > 0 {
		fmt.Fprintf(w, "; rows past a share of %.0f%% were dropped", 100*h.MaxOpeningShare)
	}
	w.WriteString(".\n\n")
}

// writeCost writes the card's cost and yield section: what each kept row
// cost over every attempt, and how many items reached each step.
func writeCost(w *bytes.Buffer, info CardInfo) {
	if info.Cost == nil && len(info.Yield) == 0 {
		return
	}
	w.WriteString("## Cost and yield\n\n")
	if c := info.Cost; c != nil {
		per := "– (no row kept)"
		if c.PerKeptRowUSD != nil {
			per = fmt.Sprintf("$%.3g", *c.PerKeptRowUSD)
		}
		fmt.Fprintf(w, "Cost per kept row: **%s** = ($%.4f teacher LLM + %.1f sandbox CPU seconds at $%.3f per CPU hour = $%.4f) / %d rows. Counted over all %d training rollouts (%d tries, infrastructure retries included), failed and dropped ones too. Not counted: the LLM task writer's requests, the benchmark's proofs, and the CPU of verification.\n\n",
			per, c.LLMUSD, c.SandboxCPUSeconds, c.CPUHourUSD, c.SandboxUSD, c.Kept, c.Rollouts, c.Attempts)
	}
	if len(info.Yield) > 0 {
		w.WriteString("| step | count | of the step before | what |\n|---|---:|---:|---|\n")
		for i, y := range info.Yield {
			rate := "–"
			if i > 0 && info.Yield[i-1].Count > 0 {
				rate = fmt.Sprintf("%.1f%%", 100*float64(y.Count)/float64(info.Yield[i-1].Count))
			}
			fmt.Fprintf(w, "| %s | %d | %s | %s |\n", y.Stage, y.Count, rate, mdCell(y.Note))
		}
		w.WriteString("\n")
	}
	switch {
	case info.GraderAccuracy != nil:
	case info.Tasks != nil && len(info.Tasks.Grader) > 0:
		w.WriteString("Grader accuracy: the wrong solutions of the battery each generator's checks rejected are in the Tasks section; correct solutions by another method are not run by this build.\n\n")
	default:
		w.WriteString("Grader accuracy: not measured by this build.\n\n")
	}
}

// prefixPlaceholder is the card's chat-template section until
// scripts/prefix.sh measures it: synth, in Go, cannot run transformers'
// templates. The script replaces what lies between the markers.
const prefixPlaceholder = "<!-- prefix-preservation -->\n## Chat templates: prefix preservation\n\n" +
	"Not measured by `synth build`, which cannot run transformers' chat templates. " +
	"`scripts/prefix.sh` with this dataset's folder measures, per template shipped inside trl, the share of rows whose every prefix renders to a token prefix of the next, and puts the figures here and in `prefix.json`.\n\n" +
	"<!-- /prefix-preservation -->\n\n"
