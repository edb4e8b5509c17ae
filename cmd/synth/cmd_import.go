package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"synth/bench"
	"synth/sources/pybench"
)

func init() { register(newImportCmd) }

func newImportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import pybench",
		Short: "Import a benchmark from another format",
	}
	cmd.AddCommand(newImportPyBenchCmd())
	return cmd
}

func newImportPyBenchCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "pybench PATH [-o DIR]",
		Short: "Turn a PyBench checkout into a synth benchmark that synth eval can run",
		Long: `import pybench reads a PyBench checkout (data/meta/task.json, data/ and
data/unit_test/tests.py) and writes a synth benchmark folder: every task keeps
its index, query and files, its category is mapped to synth's five, and its
test_task_<index> function becomes a python check (taken out of tests.py with
Python's ast, with the helpers and imports it uses).

PyBench's tests that cannot work — a test that is missing, names something
undefined, or reads an input that is not there — are listed, not hidden; the
tasks are kept so that the numbering matches PyBench's.

The benchmark's bench.json makes synth eval score it in the pybench mode by
default: PyBench's prompts and observation texts, at most 10 turns, and its
unit tests run on whatever a rollout left, however it stopped, as PyBench's
own harness scores (see synth eval --help).`,
		Example: `  synth import pybench ./PyBench -o pybench-bench
  synth eval --bench pybench-bench --model gpt-4o --base-url https://api.openai.com/v1`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			co, err := pybench.Load(args[0])
			if err != nil {
				return err
			}
			inputs := map[string]string{}
			for _, f := range co.Files {
				inputs[f.ID] = f.Path
			}
			entries := make([]bench.Entry, len(co.Tasks))
			for i, t := range co.Tasks {
				entries[i] = bench.Entry{Task: t, Inputs: inputs}
			}
			err = bench.Write(out, entries, bench.Info{SourceRun: "PyBench checkout " + co.Dir,
				Validated: "imported from PyBench; its unit tests are kept as python checks, unproven",
				Scoring:   bench.ScoringPyBench})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "imported %d tasks and %d files into %s\n", len(co.Tasks), len(co.Files), out)
			fmt.Fprintf(w, "synth eval scores it the PyBench way (its harness's prompts, observations and verdicts); --scoring strict for synth's rules\n")
			if len(co.Problems) > 0 {
				fmt.Fprintf(w, "%d tasks have broken or doubtful tests:\n", len(co.Problems))
				for _, p := range co.Problems {
					fmt.Fprintf(w, "  task %s: %s\n", p.Index, p.Reason)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "pybench-bench", "benchmark folder to write (replaced if it exists)")
	return cmd
}
