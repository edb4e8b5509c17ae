package view

import (
	"fmt"
	"os"
	"path/filepath"

	"synth/rundir"
)

// Kinds of input.
const (
	KindRun     = "run"     // a run directory: run.json, tasks.jsonl, trajectories.jsonl
	KindDataset = "dataset" // a dataset folder: Parquet under data/
	KindEval    = "eval"    // an eval's results folder: eval.json, results.jsonl
)

// input is one folder the site shows. Its files are read through root, so
// no name a rollout chose (an artifact's hash, a file's name, a symbolic
// link) reaches outside it.
type input struct {
	index int
	dir   string // absolute
	label string
	kind  string
	root  *os.Root
}

// Detect says what the folder at dir is: KindRun, KindDataset or KindEval,
// or an error that names the folder and what was looked for.
func Detect(dir string) (string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is a file: give a run directory (synth build -o), a dataset folder or an eval results folder (synth eval -o)", dir)
	}
	has := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	switch {
	case has(rundir.EvalInfo) || has(rundir.EvalResults):
		return KindEval, nil
	case has(rundir.Trajectories) || has(rundir.RunInfo):
		return KindRun, nil
	case len(parquetFiles(dir)) > 0:
		return KindDataset, nil
	}
	return "", fmt.Errorf("%s holds neither a run (%s), an eval's results (%s) nor a dataset (%s/*.parquet): give one of those folders", dir, rundir.Trajectories, rundir.EvalResults, rundir.DatasetShards)
}

func openInput(i int, dir string) (*input, error) {
	kind, err := Detect(dir)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	return &input{index: i, dir: abs, label: filepath.Base(abs), kind: kind, root: root}, nil
}

// parquetFiles lists a dataset's shards: dir/data/*.parquet, else
// dir/*.parquet, sorted.
func parquetFiles(dir string) []string {
	for _, pat := range []string{filepath.Join(dir, rundir.DatasetShards, "*.parquet"), filepath.Join(dir, "*.parquet")} {
		if m, _ := filepath.Glob(pat); len(m) > 0 {
			return m
		}
	}
	return nil
}
