package pipeline

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"synth/bench"
	"synth/rundir"
	"synth/schemas"
	"synth/serve"
)

// What synth serve serves from a run directory.

// ServePlan loads the tasks synth serve serves from a run directory: its
// planned training tasks (plan.jsonl, after synth plan or synth build),
// their inputs in the run's file store. A benchmark folder is
// eval.ServeBench's; the command asks it first, so a dir that is no run
// directory either is refused naming both.
func ServePlan(dir string, log io.Writer) (serve.Source, error) {
	if log == nil {
		log = io.Discard
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.RunInfo)); err != nil {
		return serve.Source{}, fmt.Errorf("%s is neither a benchmark folder (%s and %s/) nor a run directory (%s): give synth build's -o folder or its %s/", dir, bench.TasksFile, bench.DataDir, rundir.RunInfo, rundir.BenchDir)
	}
	info, cfg, err := planInfo(dir)
	if err != nil {
		return serve.Source{}, err
	}
	r := newRun(cfg, Options{Out: dir, Log: log})
	r.info = info
	_, files, err := r.knownFiles()
	if err != nil {
		return serve.Source{}, err
	}
	tasks, err := rundir.ReadAll[schemas.Task](filepath.Join(dir, rundir.Plan))
	if err != nil {
		return serve.Source{}, fmt.Errorf("plan: %w", err)
	}
	if len(tasks) == 0 {
		return serve.Source{}, fmt.Errorf("%s: the plan has no training tasks", dir)
	}
	return serve.Source{Name: dir, Tasks: tasks, Inputs: files.inputs}, nil
}
