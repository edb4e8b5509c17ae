package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"synth/bench"
	"synth/dataset"
	"synth/dataset/arrowexport"
	"synth/export/harbor"
	"synth/pyenv"
	"synth/rundir"
)

func init() { register(newExportCmd) }

type exportFlags struct {
	format string
	out    string
}

func newExportCmd() *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:   "export PATH --format arrow|jsonl|harbor [-o DIR]",
		Short: "Convert a dataset to another layout (arrow, jsonl), or a benchmark to Harbor tasks",
		Long: `export reads the Parquet shards of a synth dataset (train-*-of-*.parquet) and
writes them in another layout. PATH is the dataset directory (out/dataset), its
data/ folder, or the run directory (out). With --format harbor it reads a
benchmark instead: PATH is the benchmark folder (out/bench, or one made by
synth import pybench) or the run directory, whose bench/ it takes.

Formats:
  arrow   the folder Hugging Face datasets' save_to_disk writes: Arrow IPC
          stream files data-0000i-of-0000N.arrow, dataset_info.json (the
          features) and state.json. Open it with datasets.load_from_disk(DIR).
          Default DIR: PATH's dataset/arrow.
  jsonl   one JSON row per line, one file per shard, train-0000i-of-0000N.jsonl.
          Default DIR: PATH's dataset/jsonl, beside data/ (never in it,
          where readers of the Parquet shards glob).
  harbor  one Harbor task folder per benchmark task, task-<index>/ (Default
          DIR: the benchmark's folder name with -harbor, beside it):
            instruction.md   the query, then where the inputs (/app/data), the
                             outputs (/app/output) and the final answer
                             (/app/answer.txt) are
            task.toml        Harbor's task config (schema 1.4): the task's
                             provenance under [metadata]; the verifier in a
                             separate container without network; the agent as
                             the unprivileged user "agent"; /app/output and
                             /app/answer.txt as artifacts
            environment/     Dockerfile (python:3.11-slim-bookworm, Debian's
                             ffmpeg, the sandbox's locked packages installed
                             with pip --require-hashes) and data/, the inputs
            tests/           test.sh runs synth's own checks library
                             (synth_checks.py) on the task's checks
                             (checks.json) and writes /logs/verifier/reward.txt
                             (1 when every check passes) and checks.json
            solution/        solve.sh plays the reference solution and writes
                             its answer (only for tasks that have one)
          A task whose inputs are missing, are not plain relative paths or lie
          behind a link, or whose checks do not validate, is left out and
          named. DIR is replaced only when it is an earlier export.
          Limits: no container is built or run by synth; the base image is
          a tag, not a digest; python checks see the answer as the one
          assistant message (the trial's conversation is not available).

Rows keep their message format (pybench or openai-tools, chosen at build time by
dataset.format). Files are written under .tmp names and renamed when complete.`,
		Example: `  synth export out --format arrow             # out/dataset/arrow
  synth export out/bench --format harbor      # out/bench-harbor/task-2, ...
  python3 -c 'import datasets; print(datasets.load_from_disk("out/dataset/arrow"))'
  synth export out/dataset --format jsonl -o exported/`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("export takes one PATH (a synth dataset or run directory); got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runExport(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "", "layout to write: arrow, jsonl or harbor (required)")
	fl.StringVarP(&f.out, "out", "o", "", "directory to write (default: see Formats)")
	return cmd
}

func runExport(cmd *cobra.Command, path string, f exportFlags) error {
	switch f.format {
	case "arrow", "jsonl":
	case "harbor":
		return runExportHarbor(cmd, path, f.out)
	default:
		return usagef("--format %q: want arrow, jsonl or harbor", f.format)
	}
	shards, err := dataset.FindShards(path)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	data := filepath.Dir(shards[0])
	out := cmd.OutOrStdout()
	switch f.format {
	case "arrow":
		dst := f.out
		if dst == "" {
			dst = filepath.Join(filepath.Dir(data), "arrow")
		}
		res, err := arrowexport.SaveToDisk(dst, shards, arrowexport.Options{})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote %d rows in %d Arrow file(s) to %s\nload it with: datasets.load_from_disk(%q)\n", res.Rows, len(res.Files), dst, dst)
	case "jsonl":
		dst := f.out
		if dst == "" {
			// Not beside the shards: readers glob data/ for Parquet
			// (pandas.read_parquet("out/dataset/data")).
			dst = filepath.Join(filepath.Dir(data), "jsonl")
		}
		files, err := dataset.ExportJSONL(dst, shards)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote %d JSONL file(s) to %s\n", len(files), dst)
	}
	return nil
}

// runExportHarbor writes the benchmark at path (or the run directory's
// bench/) as Harbor task folders.
func runExportHarbor(cmd *cobra.Command, path, dst string) error {
	dir := path
	if kindOf(dir) == kindRun {
		dir = filepath.Join(dir, rundir.BenchDir)
	}
	if k := kindOf(dir); k != kindBench {
		what := "no benchmark"
		if k != kindNone {
			what = string(k)
		}
		return usagef("export --format harbor: %s is %s; give a benchmark folder (out/bench, or one made by synth import pybench) or a run directory", path, what)
	}
	if dst == "" {
		dst = filepath.Clean(dir) + "-harbor"
	}
	if err := wantOutside("-o", dst, kindBench, kindResults); err != nil {
		return err
	}
	hash, _ := bench.ContentHash(dir)
	rep, err := harbor.WriteTasks(dir, dst, harbor.Options{Lock: pyenv.Sandbox.Lock, Source: fmt.Sprintf("%s (content hash %.12s)", dir, hash)})
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	out := cmd.OutOrStdout()
	for _, s := range rep.Skipped {
		fmt.Fprintf(out, "left out task %q: %s\n", s.Index, s.Reason)
	}
	fmt.Fprintf(out, "wrote %d Harbor task folder(s) to %s (%d left out)\n", len(rep.Tasks), dst, len(rep.Skipped))
	return nil
}
