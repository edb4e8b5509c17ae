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
