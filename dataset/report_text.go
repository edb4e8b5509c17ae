package dataset

import (
	"fmt"
	"io"
	"text/tabwriter"

	"synth/schemas"
)

// WriteComparison writes one row per report: the PyBench paper's data
// table across datasets.
func WriteComparison(w io.Writer, reps []*Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "dataset	trajectories	turns<=3	4-6	7-9	>=10	avg turns	avg tokens	pass rate	")
	for _, r := range reps {
		t := &r.Stats.Tally
		fmt.Fprintf(tw, "%s	%d	%d	%d	%d	%d	%.1f	%.0f	%s	\n", r.Name(), t.Trajectories,
			t.Turns.UpTo3, t.Turns.From4, t.Turns.From7, t.Turns.From10, t.AvgTurns, t.AvgTokens, rateText(t.PassRate))
	}
	return tw.Flush()
}

// WriteText writes r for a terminal: the PyBench data table, then the
// funnel and failure reasons when the dataset is synth's.
func WriteText(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "%s: %d file(s); tokens: %s\n\n", r.Path, len(r.Files), r.Stats.TokensCounted)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "category\ttrajectories\tturns<=3\t4-6\t7-9\t>=10\tavg turns\tavg tokens\tpass rate\t")
	row := func(name string, t *Tally) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.0f\t%s\t\n", name, t.Trajectories,
			t.Turns.UpTo3, t.Turns.From4, t.Turns.From7, t.Turns.From10, t.AvgTurns, t.AvgTokens, rateText(t.PassRate))
	}
	for i := range r.Stats.Categories {
		c := &r.Stats.Categories[i]
		name := c.Category
		if name == "" {
			name = "(none)"
		}
		row(name, &c.Tally)
	}
	row("total", &r.Stats.Tally)
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Stats.Trajectories > 0 {
		if err := writeTurnProfile(w, r.Name(), &r.Stats.Tally); err != nil {
			return err
		}
	}
	if len(r.Funnel) > 0 {
		fmt.Fprintln(w, "\nfilter funnel:")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  stage\tin\tout\tretries\treasons")
		for _, s := range r.Funnel {
			reasons := ""
			for i, x := range s.Reasons {
				if i > 0 {
					reasons += ", "
				}
				reasons += fmt.Sprintf("%s %d", x.Reason, x.Count)
				if x.Infra {
					reasons += " (infrastructure)"
				}
			}
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%s\n", s.Name, s.In, s.Out, s.Retries, reasons)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	writeHygieneText(w, r.Hygiene)
	writeCostText(w, r.Cost, r.Yield)
	if err := writeStageTimes(w, r.StageTimes); err != nil {
		return err
	}
	if r.RolloutPassRate != nil {
		fmt.Fprintf(w, "\nrollout pass rate: %s (infrastructure failures excluded)\n", rateText(r.RolloutPassRate))
	}
	if len(r.Failures) > 0 {
		fmt.Fprintln(w, "failure reasons:")
		for _, f := range r.Failures {
			fmt.Fprintf(w, "  %-20s %d\n", f.Reason, f.Count)
		}
	}
	return writeGraderText(w, r.Grader)
}

// writeTurnProfile writes the share of trajectories per turn bucket next
// to PyInstruct's, the profile the PyBench paper reports for its data.
func writeTurnProfile(w io.Writer, name string, t *Tally) error {
	fmt.Fprintln(w, "\nturn profile (share of trajectories by assistant turns):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\t<=3\t4-6\t7-9\t>=10\t")
	p := TurnProfile(t)
	fmt.Fprintf(tw, "%s\t%.0f%%\t%.0f%%\t%.0f%%\t%.0f%%\t\n", name, 100*p[0], 100*p[1], 100*p[2], 100*p[3])
	q := PyInstructTurnProfile
	fmt.Fprintf(tw, "PyInstruct\t%.0f%%\t%.0f%%\t%.0f%%\t%.0f%%\t\n", 100*q[0], 100*q[1], 100*q[2], 100*q[3])
	return tw.Flush()
}

// writeHygieneText writes what the hygiene gate measured, when the
// dataset's stats.json says.
func writeHygieneText(w io.Writer, h *schemas.HygieneReport) {
	if h == nil {
		return
	}
	fmt.Fprintf(w, "\nhygiene (of %d verified trajectories):\n", h.Checked)
	fmt.Fprintf(w, "  repeated cells (%d+ in a row)  %d (%.1f%%)\n", h.RepeatedCellsAt, h.RepeatedCells, 100*h.Rate(h.RepeatedCells))
	fmt.Fprintf(w, "  error loops (%d+ times)        %d (%.1f%%)\n", h.ErrorLoopAt, h.ErrorLoops, 100*h.Rate(h.ErrorLoops))
	fmt.Fprintf(w, "  repeated turns (%d+ times)     %d (%.1f%%)\n", h.RepeatedTurnsAt, h.RepeatedTurns, 100*h.Rate(h.RepeatedTurns))
	fmt.Fprintf(w, "  top opening share             %.1f%% of %d rows: %q\n", 100*h.TopOpeningShare(), h.Kept, h.TopOpening)
}

// writeCostText writes the cost per kept row and the yield of each step,
// when the dataset's stats.json says.
func writeCostText(w io.Writer, c *schemas.CostReport, yield []schemas.YieldStage) {
	if c != nil {
		per := "-"
		if c.PerKeptRowUSD != nil {
			per = fmt.Sprintf("$%.3g", *c.PerKeptRowUSD)
		}
		fmt.Fprintf(w, "\ncost per kept row: %s ($%.4f LLM + %.1f sandbox CPU s at $%.3f/CPU hour, over %d rollouts, %d tries; %d rows)\n",
			per, c.LLMUSD, c.SandboxCPUSeconds, c.CPUHourUSD, c.Rollouts, c.Attempts, c.Kept)
	}
	if len(yield) > 0 {
		fmt.Fprint(w, "yield:")
		for i, y := range yield {
			if i > 0 {
				fmt.Fprint(w, " ->")
			}
			fmt.Fprintf(w, " %s %d", y.Stage, y.Count)
		}
		fmt.Fprintln(w)
	}
}
