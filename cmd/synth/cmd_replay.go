package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"synth/pipeline"
	"synth/rundir"
)

func init() { register(newReplayCmd) }

func newReplayCmd() *cobra.Command {
	var (
		sample   int
		minShare float64
	)
	cmd := &cobra.Command{
		Use:   "replay RUN",
		Short: "Re-execute a sample of a run's dataset rows and count the observations that reproduce byte for byte",
		Long: `replay re-executes the code of a sample of the dataset rows of the run directory
RUN (what synth build -o wrote), each in a fresh sandbox seeded as its rollout
was, playing the recorded assistant turns back through the same loop, and
compares every observation and cell status with the recorded one, byte for
byte. Nothing is rewritten to make them agree.

It writes RUN/replay.json (the counts, the rows that did not reproduce and the
first difference) and a "Reproduction" section into the dataset card
(RUN/dataset/README.md) that names every sampled row that did not reproduce;
a later replay replaces that section.

The sample is the N rows whose ids hash lowest: the same run and N replay the
same rows. What reproduction depends on is in RUN/run.json under
"reproduction".

Exit status: 0 when at least --min-share of the observations are identical,
1 otherwise.`,
		Example: `  synth replay out --sample 50
  synth replay out --sample 0          # every row`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if minShare < 0 || minShare > 1 {
				return usagef("--min-share %v: want a share from 0 to 1", minShare)
			}
			rep, err := pipeline.Replay(cmd.Context(), args[0], sample)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "replayed %d of %d rows: %d of %d observations byte-identical (%.1f%%); %d rows did not reproduce\n",
				rep.Sampled, rep.Rows, rep.Identical, rep.Observations, 100*rep.Share(), len(rep.Differ))
			if d := rep.Observations - rep.Identical; d > 0 {
				fmt.Fprintf(w, "%d of the %d observations that differ differ only in object addresses (0x...)\n", rep.AddressesOnly, d)
			}
			for _, id := range rep.Differ {
				fmt.Fprintf(w, "  differs: %s\n", id)
			}
			if d := rep.First; d != nil {
				fmt.Fprintf(w, "first difference: row %s, cell %d\n  recorded: %q\n  replayed: %q\n", d.Row, d.Cell, d.Recorded, d.Replayed)
			}
			fmt.Fprintf(w, "wrote %s and the card's Reproduction section\n", filepath.Join(args[0], rundir.Replay))
			if rep.Share() < minShare {
				return fmt.Errorf("%.1f%% of the observations reproduced, under --min-share %.1f%%", 100*rep.Share(), 100*minShare)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&sample, "sample", 50, "rows to re-execute (0: all)")
	cmd.Flags().Float64Var(&minShare, "min-share", 0.99, "the share of identical observations under which replay exits 1")
	return cmd
}
