package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"synth/bench"
	"synth/config"
	"synth/rollout"
	"synth/sandbox"
)

func init() { register(newBenchCmd) }

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Add a variant split to a benchmark",
		Long: `bench works on a benchmark folder that synth build wrote (out/bench):

  variants DIR      gives each task a twin on perturbed inputs, with its own
                    executed truth, in DIR/variant; synth eval then scores both
                    halves and their difference

See docs/BENCHMARK.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newBenchVariantsCmd())
	return cmd
}

func newBenchVariantsCmd() *cobra.Command {
	var cfgFile, python string
	cmd := &cobra.Command{
		Use:   "variants DIR",
		Short: "Give every benchmark task a twin on perturbed inputs (DIR/variant)",
		Long: `variants makes the benchmark's variant split. For each task with a reference
solution it perturbs the inputs as the proof's stale case does (every third row
or line dropped, float columns scaled by 1.5; csv, tsv, xlsx, parquet, txt and md
inputs), reruns the reference code on the perturbed copies in the sandbox, and
takes the twin's answer from what that code printed; the checks' literal values
(an answer's number, a table's row count) are read off the same printout, and
checks that recompute from data/ recompute from the perturbed copy. A twin is
kept only if its reference passes its checks and an empty rollout fails them.

DIR/variant is a benchmark of its own in the same PyBench layout, its twins under
their originals' indexes, with:
  variants.jsonl             per task: its twin, whether its truth moved (the
                             original answer and outputs fail the twin), or why
                             it has no twin
  VARIANTS.md                the same for people; tasks whose truth did not
                             move are flagged there
  stale_trajectories.jsonl   the original answers replayed on the twins, a
                             stale solver: synth eval --bench DIR/variant
                             --trajectories DIR/variant/stale_trajectories.jsonl
                             must score 0 on the twins whose truth moved

Afterwards synth eval --bench DIR scores both halves. Running it again replaces
DIR/variant. Tasks without a reference (an imported PyBench) get no twin.`,
		Example: `  synth bench variants out/bench
  synth eval --bench out/bench --teacher reference -o results/reference`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := wantBench(dir); err != nil {
				return err
			}
			cfg := config.Default()
			if cfgFile != "" {
				var err error
				if cfg, err = config.Load(cfgFile); err != nil {
					return err
				}
			}
			sc := rollout.BackendConfig(cfg.Sandbox, 2)
			if python != "" {
				sc.Python = python
			}
			b, err := sandbox.New(sc)
			if err != nil {
				return fmt.Errorf("sandbox: %w", err)
			}
			defer b.Close()
			sum, err := bench.MakeVariants(cmd.Context(), b, dir, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d of %d tasks have a twin; the truth moved in %d, did not move in %d (flagged in %s)\n",
				sum.Dir, sum.Twins, sum.Tasks, sum.Moved, sum.Unmoved(), bench.VariantReport)
			return nil
		},
	}
	cmd.Flags().StringVarP(&cfgFile, "config", "c", "", "synth.yaml whose sandbox section applies")
	cmd.Flags().StringVar(&python, "python", "", "the sandbox's interpreter; default the locked environment (config: sandbox.python)")
	return cmd
}
