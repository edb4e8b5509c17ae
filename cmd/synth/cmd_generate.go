package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"synth/pipeline"
	"synth/rundir"
)

func init() { register(newGenerateCmd) }

func newGenerateCmd() *cobra.Command {
	var f buildFlags
	var validate bool
	cmd := &cobra.Command{
		Use:   "generate [-o DIR] [-c FILE]",
		Short: "Collect files and write tasks (with --validate, prove every task in the sandbox)",
		Long: `generate runs the first two stages of synth build: collect, then a task per file
and template, each with its checks and a reference solution (tasks.jsonl), and a
report of tasks per category, group and file type, and of every collected file
that got no task, with why (tasks.report.md). Tasks that read no file (math,
programs, web pages) are written for the built-in corpus, or with --fileless.

With --validate every task is run in the sandbox before it is kept: its
reference solution must pass every check, a do-nothing rollout must fail at
least one, and so must a mutated reference (the other sort order, a wrong
number, an untransformed image) where the template defines one, and the
battery of wrong solutions made from the reference (its output tables with
wrong values, its answer's numbers zeroed, off by one or swapped, its answer
computed on perturbed inputs, its first answer judged on perturbed inputs).
Tasks that fail are dropped and counted by
reason; tasks.report.md lists each with why, and how often each template's
checks rejected the battery (grader accuracy). Tasks without a reference solution
are kept unproven, and the summary says how many. Benchmark tasks are always
proven this way by synth build. Tasks from the LLM writer (tasks.writer: llm
in the config) are proven as they are written, with or without --validate: expected
values computed in the sandbox, the reference passing, the empty rollout,
every adversary and wrong solutions failing.

A later synth build with the same settings and -o goes on from there.`,
		Example: `  synth generate -o out --validate
  synth generate -o out --templates table.,image.rotate --source local:./files
  synth build -o out --validate-tasks      # the same tasks, then the rest of the pipeline`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := resolveConfig(cmd, f)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("validate") {
				cfg.Tasks.Validate = validate
			}
			sum, err := pipeline.Generate(cmd.Context(), cfg, pipeline.Options{Out: f.out, Version: version, Log: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			printSummary(cmd.OutOrStdout(), sum)
			fmt.Fprintf(cmd.OutOrStdout(), "tasks:     %s\nreport:    %s\n", filepath.Join(f.out, rundir.Tasks), filepath.Join(f.out, rundir.TasksReport))
			return nil
		},
	}
	addSourceFlags(cmd, &f)
	cmd.Flags().StringSliceVar(&f.templates, "templates", nil, "only these templates or prefixes, e.g. table.,text.wordfreq (config: tasks.templates)")
	cmd.Flags().BoolVar(&f.fileless, "fileless", false, "also write the tasks that read no file (math, programs, web pages); without it they are written only when the built-in corpus is a source (config: tasks.fileless)")
	cmd.Flags().BoolVar(&validate, "validate", false, "prove every task in the sandbox and drop those that fail (config: tasks.validate)")
	return cmd
}
