package main

import (
	"os"
	"path/filepath"

	"synth/bench"
	"synth/rundir"
)

// folderKind is what a synth folder holds, told by the files in it.
type folderKind string

const (
	kindNone    folderKind = ""
	kindRun     folderKind = "a run directory"
	kindDataset folderKind = "a dataset"
	kindBench   folderKind = "a benchmark"
	kindResults folderKind = "eval results"
)

func exists(parts ...string) bool {
	_, err := os.Stat(filepath.Join(parts...))
	return err == nil
}

// kindOf tells a run directory (run.json), eval results (eval.json), a
// benchmark (BENCHMARK.md, or tasks.jsonl beside data/ as PyBench lays it
// out) and a dataset (stats.json, or a card beside Parquet under data/)
// apart.
func kindOf(dir string) folderKind {
	if k := synthKindOf(dir); k != kindNone {
		return k
	}
	parquet, _ := filepath.Glob(filepath.Join(dir, rundir.DatasetShards, "*.parquet"))
	switch {
	case exists(dir, rundir.EvalSummary) && exists(dir, rundir.EvalResults):
		return kindResults
	case exists(dir, bench.TasksFile) && exists(dir, bench.DataDir):
		return kindBench
	case exists(dir, rundir.DatasetCard) && len(parquet) > 0:
		return kindDataset
	}
	return kindNone
}

// synthKindOf tells only by the files synth itself writes, so that a
// folder of someone's project is never taken for one of synth's.
func synthKindOf(dir string) folderKind {
	switch {
	case exists(dir, rundir.RunInfo):
		return kindRun
	case exists(dir, rundir.EvalInfo):
		return kindResults
	case exists(dir, bench.CardFile):
		return kindBench
	case exists(dir, rundir.DatasetStats):
		return kindDataset
	}
	return kindNone
}

// wantBench refuses a --bench that is not a benchmark, naming what it is
// and the command to use.
func wantBench(dir string) error {
	switch k := kindOf(dir); k {
	case kindBench:
		return nil
	case kindRun:
		return usagef("--bench %s: that is %s, not a benchmark; its benchmark is %s: synth eval --bench %s", dir, k, filepath.Join(dir, rundir.BenchDir), filepath.Join(dir, rundir.BenchDir))
	case kindDataset:
		return usagef("--bench %s: that is %s (training rows), not a benchmark; give a benchmark folder, e.g. out/bench; for the dataset's figures: synth stats %s", dir, k, dir)
	case kindResults:
		return usagef("--bench %s: that is %s, not a benchmark; compare results with: synth eval compare %s", dir, k, dir)
	}
	if !exists(dir, bench.TasksFile) {
		return usagef("--bench %s: no %s there (give a benchmark folder made by synth build or synth import, e.g. out/bench)", dir, bench.TasksFile)
	}
	return nil
}

// wantStatsInput refuses a stats PATH that holds no rows to count.
func wantStatsInput(path string) error {
	switch k := kindOf(path); k {
	case kindBench:
		return usagef("%s is %s (tasks, not trajectories): stats reads datasets, e.g. synth stats out/dataset; to score a model on it: synth eval --bench %s", path, k, path)
	case kindResults:
		return usagef("%s holds %s: read %s, or compare runs with synth eval compare %s", path, k, filepath.Join(path, rundir.EvalReport), path)
	}
	return nil
}

// wantOutside refuses an output folder inside (or equal to) a folder of
// one of the kinds given, naming it: a run written into another run's
// dataset or benchmark would mix the two.
func wantOutside(flag, out string, kinds ...folderKind) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil
	}
	for d := abs; ; d = filepath.Dir(d) {
		k := synthKindOf(d)
		for _, bad := range kinds {
			if k == bad {
				return usagef("%s %s: %s is %s; write somewhere else, e.g. a new folder beside the run", flag, out, d, k)
			}
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}
