package main

import (
	"errors"

	"github.com/spf13/cobra"

	"synth/pipeline"
)

func init() { register(newMergeCmd) }

func newMergeCmd() *cobra.Command {
	var (
		out    string
		shards int
	)
	cmd := &cobra.Command{
		Use:   "merge [-o DIR]",
		Short: "Gather every shard's rollouts and emit the dataset and benchmark",
		Long: `merge is the last step of a build split over machines (synth plan, then
synth rollout for each shard): it gathers the rollouts of every shard under
RUN/shards/, then filters, dedups and emits the dataset (dataset/) and the
benchmark (bench/) exactly as synth build does. The rows, their ids and their
order do not depend on how the work was split. The funnel, the dataset card
and the costs count every shard.

It refuses, and names the shard, when a shard is missing, unfinished (still
running, killed, or stopped by its budget or an endpoint) or rolled out
another plan; rerun that shard's synth rollout, then merge again.`,
		Example: `  synth merge -o run1
  synth merge -o run1 --shards 3    # when RUN/shards holds more than one split`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sum, err := pipeline.Merge(cmd.Context(), shards, pipeline.Options{Out: out, Version: version, Log: cmd.ErrOrStderr()})
			if errors.Is(err, pipeline.ErrConfigChanged) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			printSummary(cmd.OutOrStdout(), sum)
			return emptyDataset(sum)
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "out", "run directory synth plan wrote and the shards rolled out")
	cmd.Flags().IntVar(&shards, "shards", 0, "number of shards to merge; default: the one split under RUN/shards")
	return cmd
}
