package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"synth/pipeline"
	"synth/rundir"
)

func init() { register(newPlanCmd) }

func newPlanCmd() *cobra.Command {
	var f buildFlags
	cmd := &cobra.Command{
		Use:   "plan [-o DIR] [-c FILE]",
		Short: "Run every stage before the rollouts and write the plan that shards share out",
		Long: `plan is the first step of a build split over machines: it runs every stage of
synth build except the rollouts (collect, generate, split, filter tasks, validate
the benchmark) into the run directory, and writes plan.jsonl, the training tasks
to roll out. It takes build's flags and config; the same config always gives
the same plan, and a second plan reads back what the first did.

Then run the rollouts as N shards, each anywhere that sees the run directory
(a shared filesystem), and merge them:

  synth rollout -o RUN --shard I/N     for I = 1..N, in parallel
  synth merge -o RUN

The dataset and benchmark are the same as one synth build of the same config.
synth launch slurm and synth launch k8s write the jobs that do all three.`,
		Example: `  synth plan -o run1 --config synth.yaml
  synth plan -o run1 --teacher openai --model qwen2.5-coder --base-url http://vllm:8000/v1 --samples 4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := resolveConfig(cmd, f)
			if err != nil {
				return err
			}
			sum, err := pipeline.Plan(cmd.Context(), cfg, pipeline.Options{Out: f.out, Version: version, Log: cmd.ErrOrStderr()})
			if errors.Is(err, pipeline.ErrConfigChanged) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			printSummary(cmd.OutOrStdout(), sum)
			fmt.Fprintf(cmd.OutOrStdout(), "plan:      %s\nnext:      synth rollout -o %s --shard I/N (for I = 1..N), then synth merge -o %s\n",
				filepath.Join(f.out, rundir.Plan), f.out, f.out)
			return nil
		},
	}
	addBuildFlags(cmd, &f)
	return cmd
}
