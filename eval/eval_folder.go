package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"synth/bench"
	"synth/rundir"
)

// Folder is a finished eval's results folder as synth eval wrote it:
// what made it (eval.json), its figures (summary.json) and one result per
// rollout (results.jsonl, a later record of a rollout replacing an earlier
// one), in the order of their last record.
type Folder struct {
	Dir       string
	Bench     string // the benchmark folder, as synth eval was given it
	BenchHash string
	Version   string // synth's version that ran the eval
	Started   time.Time
	Finished  time.Time // eval.json's, else when summary.json was written
	Summary   bench.Summary
	Results   []bench.Result
}

// LoadFolder reads the results folder dir. It fails, naming the fix,
// when dir is not one or its eval has not finished (no summary.json yet).
func LoadFolder(dir string) (*Folder, error) {
	b, err := os.ReadFile(filepath.Join(dir, rundir.EvalInfo))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s has no %s: give a results folder written by synth eval -o", dir, rundir.EvalInfo)
	}
	if err != nil {
		return nil, err
	}
	var ei evalInfo
	if err := json.Unmarshal(b, &ei); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, rundir.EvalInfo), err)
	}
	st, err := os.Stat(filepath.Join(dir, rundir.EvalSummary))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s has no %s: the eval has not finished (run the same synth eval command again to finish it)", dir, rundir.EvalSummary)
	}
	if err != nil {
		return nil, err
	}
	run, err := bench.LoadRun(dir)
	if err != nil {
		return nil, err
	}
	ef := &Folder{Dir: dir, Bench: ei.Bench, BenchHash: ei.BenchHash, Version: ei.Version,
		Started: ei.Started, Finished: ei.Finished, Summary: run.Summary}
	if ef.Finished.IsZero() {
		ef.Finished = st.ModTime().UTC() // summary.json is written when the eval ends
	}
	var all []bench.Result
	last := map[string]int{} // a rollout's key: the index of its last record
	err = rundir.ReadJournal(filepath.Join(dir, rundir.EvalResults), func(r bench.Result) error {
		last[fmt.Sprintf("%s\x00%s\x00%d", r.TaskID, r.Index, r.Sample)] = len(all)
		all = append(all, r)
		return nil
	})
	for i, r := range all {
		if last[fmt.Sprintf("%s\x00%s\x00%d", r.TaskID, r.Index, r.Sample)] == i {
			ef.Results = append(ef.Results, r)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, rundir.EvalResults), err)
	}
	return ef, nil
}
