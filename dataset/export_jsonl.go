package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"synth/rundir"
	"synth/schemas"
)

// FindShards returns the Parquet shards (train-*-of-*.parquet) of the
// dataset at path: a dataset directory, its data/ folder, or a run
// directory with dataset/data inside.
func FindShards(path string) ([]string, error) {
	for _, dir := range []string{path, filepath.Join(path, rundir.DatasetShards), filepath.Join(path, rundir.DatasetDataDir)} {
		paths, err := filepath.Glob(filepath.Join(dir, "train-*-of-*.parquet"))
		if err != nil {
			return nil, err
		}
		if len(paths) > 0 {
			return paths, nil
		}
	}
	return nil, fmt.Errorf("%s: no train-*-of-*.parquet shards in it, its data/ or its dataset/data/ (is it a synth dataset? run synth build first)", path)
}

// ExportJSONL writes each Parquet shard as a JSONL file of the same name
// in dst (one row per line, in the shard's format as jsonlRowOf writes
// it), each under a .tmp name renamed when complete, and returns their
// paths.
func ExportJSONL(dst string, shards []string) ([]string, error) {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, fmt.Errorf("export jsonl: %w", err)
	}
	var out []string
	for _, src := range shards {
		name := strings.TrimSuffix(filepath.Base(src), ".parquet") + ".jsonl"
		path := filepath.Join(dst, name)
		format, err := ShardFormat(src)
		if err != nil {
			return nil, fmt.Errorf("export jsonl: %w", err)
		}
		rowOf := jsonlRowOf(format)
		j, err := openJSONL(path + ".tmp")
		if err != nil {
			return nil, fmt.Errorf("export jsonl: %w", err)
		}
		err = ReadRows(src, func(r *schemas.Row) error { return j.write(rowOf(r)) })
		if err == nil {
			err = j.close()
		} else {
			j.abandon()
		}
		if err == nil {
			err = os.Rename(j.tmp, path)
		}
		if err != nil {
			os.Remove(j.tmp)
			return nil, fmt.Errorf("export jsonl: %s: %w", name, err)
		}
		out = append(out, path)
	}
	return out, nil
}
