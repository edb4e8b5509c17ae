package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"synth/dataset"
	"synth/dataset/arrowexport"
)

func init() { register(newExportCmd) }

type exportFlags struct {
	format string
	out    string
}

func newExportCmd() *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:   "export PATH",
		Short: "Convert a synth dataset's Parquet shards to another layout (arrow, jsonl)",
		Long: `export reads the Parquet shards of a synth dataset (train-*-of-*.parquet) and
writes them in another layout. PATH is the dataset directory (out/dataset), its
data/ folder, or the run directory (out).

Formats:
  arrow   the folder Hugging Face datasets' save_to_disk writes: Arrow IPC
          stream files data-0000i-of-0000N.arrow, dataset_info.json (the
          features) and state.json. Open it with datasets.load_from_disk(DIR).
          Default DIR: PATH's dataset/arrow.
  jsonl   one JSON row per line, one file per shard, train-0000i-of-0000N.jsonl.
          Default DIR: beside the shards.

Rows keep their message format (pybench or openai-tools, chosen at build time by
dataset.format). Files are written under .tmp names and renamed when complete.`,
		Example: `  synth export out --format arrow             # out/dataset/arrow
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
	fl.StringVar(&f.format, "format", "", "layout to write: arrow or jsonl (required)")
	fl.StringVarP(&f.out, "out", "o", "", "directory to write (default: see Formats)")
	return cmd
}

func runExport(cmd *cobra.Command, path string, f exportFlags) error {
	if f.format != "arrow" && f.format != "jsonl" {
		return usagef("--format %q: want arrow or jsonl", f.format)
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
			dst = data
		}
		files, err := dataset.ExportJSONL(dst, shards)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote %d JSONL file(s) to %s\n", len(files), dst)
	}
	return nil
}
