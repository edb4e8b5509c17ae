package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"synth/bench"
	"synth/config"
	"synth/eval"
	"synth/rollout"
	"synth/sandbox"
)

func init() { register(newBenchCmd) }

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Add a variant split to a benchmark, record its difficulty, recalibrate its bands",
		Long: `bench works on a benchmark folder that synth build wrote (out/bench):

  variants DIR      gives each task a twin on perturbed inputs, with its own
                    executed truth, in DIR/variant; synth eval then scores both
                    halves and their difference
  difficulty DIR    records each task's steps, its pass rates under the offline
                    teachers and its difficulty band (DIR/difficulty.json);
                    synth eval then reports the pass rate per band
  calibrate RESULTS rewrites the bands from a real model's eval results

See docs/BENCHMARK.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newBenchVariantsCmd(), newBenchDifficultyCmd(), newBenchCalibrateCmd())
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
			b, _, err := benchBackend(cfgFile, python)
			if err != nil {
				return err
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

func newBenchDifficultyCmd() *cobra.Command {
	var cfgFile, python string
	var teachers []string
	cmd := &cobra.Command{
		Use:   "difficulty DIR",
		Short: "Record each task's steps, offline pass rates and difficulty band (DIR/" + bench.DifficultyFile + ")",
		Long: `difficulty plays every task of the benchmark with each offline teacher, one
rollout each, in the sandbox and with the checks synth eval uses, and writes
DIR/` + bench.DifficultyFile + `: per task its number of steps (a composed task's dependent
steps, else 1), its pass rate under each teacher, and its band:

  ` + bench.OfflineRule + `

The offline teachers: reference (passes a valid task), empty and every adversary
(fail it), and weak, a scripted solver that does the first step only (a composed
task's load, first step and report) and answers with the last line it printed.
synth eval then reports the pass rate per band; synth bench calibrate RESULTS
rewrites the bands from a real model's results. The file is left out of the
benchmark's content hash. Every task needs a reference solution.`,
		Example: `  synth bench difficulty out/bench
  synth bench difficulty out/bench --teachers reference,weak`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := wantBench(dir); err != nil {
				return err
			}
			known := eval.OfflineTeachers()
			if len(teachers) == 0 {
				teachers = known
			}
			for _, k := range teachers {
				if !slices.Contains(known, k) {
					return usagef("--teachers %s: not an offline teacher (want some of %s)", k, strings.Join(known, ","))
				}
			}
			if !slices.Contains(teachers, eval.TeacherWeak) {
				return usagef("--teachers %s: the bands need the weak solver; add weak", strings.Join(teachers, ","))
			}
			b, sc, err := benchBackend(cfgFile, python)
			if err != nil {
				return err
			}
			defer b.Close()
			d, err := eval.MeasureDifficulty(cmd.Context(), eval.Config{Bench: dir, Sandbox: sc}, eval.Options{Backend: b, Log: cmd.ErrOrStderr(), Version: version}, teachers)
			if err != nil {
				return err
			}
			if err := bench.WriteDifficulty(dir, d); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d tasks banded by the offline teachers: %s\n", filepath.Join(dir, bench.DifficultyFile), len(d.Tasks), bandCounts(d))
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&teachers, "teachers", nil, "offline teachers to run (default all: "+strings.Join(eval.OfflineTeachers(), ",")+"); weak is required")
	cmd.Flags().StringVarP(&cfgFile, "config", "c", "", "synth.yaml whose sandbox section applies")
	cmd.Flags().StringVar(&python, "python", "", "the sandbox's interpreter; default the locked environment (config: sandbox.python)")
	return cmd
}

func newBenchCalibrateCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "calibrate RESULTS",
		Short: "Rewrite a benchmark's difficulty bands from a model's eval results",
		Long: `calibrate reads an eval's results folder (synth eval -o RESULTS; its
results.jsonl) and rewrites the bands in its benchmark's ` + bench.DifficultyFile + `:

  ` + bench.CalibratedRule + `

Infrastructure failures do not count. The benchmark is the one the eval ran
(its eval.json), or --bench; its content hash must be the one the results were
scored on. The file then says "source": "calibrated", the results folder, the
model and how many tasks it banded; each task gets "model_pass_rate". Run synth
bench difficulty first. Later evals report their pass rate per calibrated band.`,
		Example: `  synth eval --bench out/bench --model qwen2.5-7b --samples 4 -o results/qwen
  synth bench calibrate results/qwen`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			res := args[0]
			if st, err := os.Stat(res); err == nil && !st.IsDir() {
				res = filepath.Dir(res) // results.jsonl: its folder
			}
			f, err := eval.LoadFolder(res)
			if err != nil {
				return usageError{err}
			}
			if dir == "" {
				dir = f.Bench
			}
			if err := wantBench(dir); err != nil {
				return err
			}
			hash, err := bench.ContentHash(dir)
			if err != nil {
				return err
			}
			if hash != f.BenchHash {
				return usagef("%s were scored on a benchmark of content hash %s, and %s's is %s: calibrate with results of this benchmark", res, f.BenchHash, dir, hash)
			}
			d, ok, err := bench.LoadDifficulty(dir)
			if err != nil {
				return err
			}
			if !ok {
				return usagef("%s has no %s: run synth bench difficulty %s first", dir, bench.DifficultyFile, dir)
			}
			tasks, err := bench.Load(dir)
			if err != nil {
				return err
			}
			model := f.Summary.Model
			if model == "" {
				model = f.Summary.Teacher
			}
			n := d.Calibrate(tasks, f.Results, model, res)
			if n == 0 {
				return fmt.Errorf("%s holds no scored result of a task of %s: nothing to calibrate", res, dir)
			}
			if err := bench.WriteDifficulty(dir, d); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: bands of %d of %d tasks recalibrated from %s (%s): %s\n", filepath.Join(dir, bench.DifficultyFile), n, len(d.Tasks), res, model, bandCounts(d))
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "bench", "", "the benchmark folder (default: the one the eval ran, from RESULTS/eval.json)")
	return cmd
}

// bandCounts is "easy N, medium N, hard N".
func bandCounts(d bench.Difficulty) string {
	n := map[string]int{}
	for _, t := range d.Tasks {
		n[t.Band]++
	}
	var parts []string
	for _, b := range bench.Bands {
		parts = append(parts, fmt.Sprintf("%s %d", b, n[b]))
	}
	return strings.Join(parts, ", ")
}

// benchBackend is the sandbox backend of the bench commands, from the
// config's sandbox section.
func benchBackend(cfgFile, python string) (sandbox.Backend, sandbox.Config, error) {
	cfg := config.Default()
	if cfgFile != "" {
		var err error
		if cfg, err = config.Load(cfgFile); err != nil {
			return nil, sandbox.Config{}, err
		}
	}
	sc := cfg.Sandbox
	if python != "" {
		sc.Python = python
	}
	b, err := sandbox.New(rollout.BackendConfig(sc, 2))
	if err != nil {
		return nil, sc, fmt.Errorf("sandbox: %w", err)
	}
	return b, sc, nil
}
