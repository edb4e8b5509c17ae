package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"synth/dataset"
)

func init() { register(newStatsCmd) }

type statsFlags struct {
	json   bool
	html   string
	tokens string
}

func newStatsCmd() *cobra.Command {
	var f statsFlags
	cmd := &cobra.Command{
		Use:   "stats PATH...",
		Short: "Print the statistics of datasets: trajectories, turns, tokens, pass rates",
		Long: `stats reads a PyInstruct-style dataset and prints the statistics of the PyBench
paper's data table: trajectories, assistant turns in buckets (<=3, 4-6, 7-9,
>=10), average turns and tokens per trajectory, overall and per category.

PATH is a Parquet, JSONL or JSON file, or a directory of them: a synth dataset
(out/dataset), its data/ folder, a run directory (out), a run's
trajectories.jsonl (every rollout, passed or not), or a download of PyInstruct
or CodeActInstruct. Messages are read from a "messages" or
"conversations" column, as {role, content} or ShareGPT's {from, value}; a
"category" column splits the table, a "passed" column gives pass rates.

With several PATHs, stats first prints one row per dataset, as the paper's
table compares datasets, then each dataset's table.

For synth's own datasets, stats also reads stats.json beside the shards and
shows the filter funnel, the rollout pass rate and why rollouts failed.

Tokens are counted offline with tiktoken's o200k_base encoding, so figures
compare across datasets; --tokens column uses synth's tokens column instead
(teacher usage summed over turns: larger, but instant).`,
		Example: `  synth stats out/dataset                         # a synth dataset
  synth stats out/dataset --html stats.html       # a report with charts for people
  synth stats out PyInstruct/ codeact.jsonl       # compare datasets side by side
  synth stats PyInstruct/data/train.parquet --json  # machines: one JSON object
  synth stats out/trajectories.jsonl              # every rollout, with its verdict
  synth stats codeact.jsonl`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("stats needs a PATH: a Parquet, JSONL or JSON file, or a dataset directory")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runStats(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the statistics as one JSON object")
	fl.StringVar(&f.html, "html", "", "also write an HTML report with charts to `FILE`")
	fl.StringVar(&f.tokens, "tokens", dataset.TokensSourceOffline, "where token counts come from: offline or column")
	return cmd
}

func runStats(cmd *cobra.Command, paths []string, f statsFlags) error {
	if f.tokens != dataset.TokensSourceOffline && f.tokens != dataset.TokensSourceColumn {
		return usagef("--tokens %q: want offline or column", f.tokens)
	}
	var reps []*dataset.Report
	for _, p := range paths {
		if err := wantStatsInput(p); err != nil {
			return err
		}
		rep, err := dataset.ReadStats(p, f.tokens)
		if err != nil {
			return err
		}
		reps = append(reps, rep)
	}
	if f.html != "" {
		if err := writeHTMLReport(f.html, reps); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	if f.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if len(reps) == 1 {
			return enc.Encode(reps[0])
		}
		return enc.Encode(reps)
	}
	if len(reps) > 1 {
		if err := dataset.WriteComparison(out, reps); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	for i, rep := range reps {
		if i > 0 {
			fmt.Fprintln(out)
		}
		if err := dataset.WriteText(out, rep); err != nil {
			return err
		}
	}
	if f.html != "" {
		fmt.Fprintf(out, "\nHTML report: %s\n", f.html)
	}
	return nil
}

func writeHTMLReport(path string, reps []*dataset.Report) error {
	file, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	if err := dataset.WriteHTML(file, reps...); err != nil {
		file.Close()
		return fmt.Errorf("--html %s: %w", path, err)
	}
	if err := file.Close(); err != nil {
		return fmt.Errorf("--html %s: %w", path, err)
	}
	return nil
}
