package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"synth/eval"
	"synth/export/harbor"
	"synth/export/inspectlog"
)

func newEvalExportCmd() *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export RESULTS --format inspect|atif [-o DIR]",
		Short: "Write an eval's results as an inspect_ai log or Harbor (ATIF) trajectories",
		Long: `export writes a finished eval's results folder (synth eval -o) in another
tool's format.

Formats:
  inspect   an inspect_ai eval log (its JSON format, log version 2), one file
            named as inspect names logs (2026-01-02T15-04-05+00-00_TASK_ID.json)
            in DIR (default RESULTS/inspect). Each rollout is a sample: id the
            task's index, epoch its sample number (1..--samples), the task's
            prompt as input, its messages (tool calls with arguments as
            objects in the openai-tools format), the final answer as output,
            and a score "unit_tests" of C (passed) or I (failed) whose
            explanation lists every check's message. A rollout lost to the
            infrastructure is a sample with an error and no score. The
            results hold accuracy (pass@1 over the scored tasks) and
            accuracy_all_tasks from summary.json. Read it with
            inspect_ai.log.read_eval_log(PATH) or browse it with
            inspect view --log-dir DIR.

  atif      Harbor's trajectory format (ATIF-v1.6), one JSON file per rollout,
            task-<index>-sample-<n>.json, in DIR (default RESULTS/atif): the
            system prompt and user turns as system and user steps, each
            assistant turn an agent step whose code cells are tool calls of
            execute_python with {"code": ...} and whose observation is the
            cells' output as the model saw it; the teacher's usage in
            final_metrics; the verdict (passed, failure, every check's
            message), the final answer and the stop reason in extra. Load
            one with harbor.models.trajectories.Trajectory.model_validate.

Limits (inspect): samples have no target (the unit tests, not a reference string,
decide), and no events transcript; exporting the same folder again
rewrites the same file.`,
		Example: `  synth eval export results/4o-mini --format atif      # results/4o-mini/atif/*.json
  synth eval export results/4o-mini --format inspect
  inspect view --log-dir results/4o-mini/inspect
  python3 -c 'from inspect_ai.log import read_eval_log, list_eval_logs
  log = read_eval_log(list_eval_logs("results/4o-mini/inspect")[0])
  print(log.results.scores[0].metrics["accuracy"].value)'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("eval export takes one RESULTS folder (written by synth eval -o); got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "inspect" && format != "atif" {
				return usagef("--format %q: want inspect or atif", format)
			}
			dir := args[0]
			if k := kindOf(dir); k != kindResults && k != kindNone {
				return usagef("%s is %s, not eval results: eval export takes a folder written by synth eval -o", dir, k)
			}
			ef, err := eval.LoadFolder(dir)
			if err != nil {
				return usageError{err}
			}
			dst := out
			if dst == "" {
				dst = filepath.Join(dir, format)
			}
			if format == "atif" {
				trs, names := harbor.Trajectories(ef)
				if err := harbor.WriteTrajectories(dst, trs, names); err != nil {
					return fmt.Errorf("eval export: %w", err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %d ATIF trajectories to %s\n", len(trs), dst)
				return nil
			}
			l := inspectlog.Build(ef)
			path, err := inspectlog.Write(dst, l)
			if err != nil {
				return fmt.Errorf("eval export: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %d samples (accuracy %.3f) to %s\nview it with: inspect view --log-dir %s\n",
				len(l.Samples), ef.Summary.PassRate, path, dst)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "format to write: inspect or atif (required)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "folder to write (default RESULTS/inspect or RESULTS/atif)")
	return cmd
}
