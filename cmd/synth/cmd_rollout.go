package main

import (
	"errors"
	"os"

	"github.com/spf13/cobra"

	"synth/pipeline"
)

func init() { register(newRolloutCmd) }

func newRolloutCmd() *cobra.Command {
	var (
		out, shard string
		shards     int
		so         pipeline.ShardOptions
	)
	cmd := &cobra.Command{
		Use:   "rollout --shard I/N [-o DIR]",
		Short: "Roll out one shard of a plan (after synth plan; before synth merge)",
		Long: `rollout runs the rollouts of one shard of the plan synth plan wrote in the run
directory, with the plan's config. Training tasks are dealt to N shards by a
hash of the task id, so each task belongs to exactly one shard whatever runs
where. A shard writes only under RUN/shards/I-of-N/ (trajectories.jsonl, the
LLM cache, artifacts, shard.json), so shards on a shared filesystem never
write each other's files.

Like build, a shard resumes: run again after a crash, a cancel or a budget
stop, it does only the rollouts its journal lacks. The LLM budget
(llm.max_cost_usd, llm.max_tokens) is split evenly: each shard may spend 1/N.

--shard auto reads the scheduler's environment:
  Slurm job array     with --shards N: SLURM_ARRAY_TASK_ID is the shard number
                      (submit --array=1-N); without: the task's place in the
                      array of SLURM_ARRAY_TASK_COUNT
  Kubernetes          JOB_COMPLETION_INDEX of an Indexed Job, from 0; needs --shards N`,
		Example: `  synth rollout -o run1 --shard 2/3
  synth rollout -o run1 --shard auto --shards 3     # in sbatch --array=1-3, or an Indexed Job`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("shard") {
				return usagef("rollout needs --shard I/N (or --shard auto under Slurm or Kubernetes)")
			}
			s, err := pipeline.ParseShard(shard, shards, os.Getenv)
			if err != nil {
				return usageError{err}
			}
			stderr := cmd.ErrOrStderr()
			sum, err := pipeline.Rollout(cmd.Context(), s, so, pipeline.Options{
				Out: out, Version: version, Log: stderr, Terminal: isTerminal(stderr),
			})
			if errors.Is(err, pipeline.ErrConfigChanged) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			printSummary(cmd.OutOrStdout(), sum)
			return lostRollouts(sum)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&out, "out", "o", "out", "run directory synth plan wrote")
	fl.StringVar(&shard, "shard", "", "the shard to run: I/N (1 <= I <= N), or auto")
	fl.IntVar(&shards, "shards", 0, "number of shards, for --shard auto")
	fl.IntVar(&so.Concurrency, "concurrency", 0, "rollouts in flight at most; default: the plan's (config: concurrency)")
	fl.Float64Var(&so.MaxCostUSD, "max-cost-usd", 0, "the whole run's budget in dollars, 1/N of it for this shard; default: the plan's (config: llm.max_cost_usd)")
	fl.Int64Var(&so.MaxTokens, "max-tokens", 0, "the whole run's budget in tokens, 1/N of it for this shard; default: the plan's (config: llm.max_tokens)")
	return cmd
}
