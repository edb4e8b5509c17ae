package dataset

import (
	"synth/rundir"
	"synth/schemas"

	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Token sources for ReadStats.
const (
	TokensSourceOffline = "offline" // count every message offline (comparable across datasets)
	TokensSourceColumn  = "column"  // use a tokens column where there is one, else count offline
)

// Report is the statistics of one dataset as `synth stats` shows them.
type Report struct {
	Path  string   `json:"path"`
	Files []string `json:"files"`
	Stats Stats    `json:"stats"`
	// Funnel and Failures come from a synth dataset's stats.json: the filter
	// stages, and the reasons rollouts failed verification.
	Funnel   []FunnelStage `json:"funnel,omitempty"`
	Failures []ReasonTotal `json:"failures,omitempty"`
	// RolloutPassRate is the share of verified rollouts that passed (the
	// verify stage's out over in), infrastructure failures excluded.
	RolloutPassRate *float64 `json:"rollout_pass_rate,omitempty"`
	// StageTimes come from the run.json of the run the dataset belongs to:
	// what each stage of its last build cost.
	StageTimes []schemas.StageTime `json:"stage_times,omitempty"`
	// Hygiene comes from a synth dataset's stats.json: what the hygiene
	// gate measured.
	Hygiene *schemas.HygieneReport `json:"hygiene,omitempty"`
	// Cost and Yield come from a synth dataset's stats.json: the cost per
	// kept row over every attempt, and the items that reached each step.
	Cost  *schemas.CostReport  `json:"cost,omitempty"`
	Yield []schemas.YieldStage `json:"yield,omitempty"`
	// Grader comes from stats.json: how each generator's checks fared
	// against the battery of wrong solutions (GraderRow).
	Grader []GraderRow `json:"grader,omitempty"`
}

// Name is how reports call the dataset: its path without a trailing
// data/ or dataset/ folder name when that says nothing.
func (r *Report) Name() string {
	p := filepath.Clean(r.Path)
	for {
		base := filepath.Base(p)
		if (base == rundir.DatasetShards || base == rundir.DatasetDir) && filepath.Dir(p) != p && filepath.Dir(p) != "." {
			p = filepath.Dir(p)
			continue
		}
		return base
	}
}

// FunnelStage is a filter stage as stats.json records it.
type FunnelStage struct {
	Name    string        `json:"name"`
	In      int64         `json:"in"`
	Out     int64         `json:"out"`
	Retries int64         `json:"retries,omitempty"`
	Reasons []ReasonTotal `json:"reasons,omitempty"`
}

// ReasonTotal is how many items were dropped for one reason.
type ReasonTotal struct {
	Reason string `json:"reason"`
	Count  int64  `json:"count"`
	Infra  bool   `json:"infra,omitempty"`
}

// ReadStats computes the statistics of a PyInstruct-style dataset at path:
// a Parquet, JSONL or JSON file, or a directory of them (a synth dataset
// directory, its data/ folder, or a run directory with dataset/data inside).
// A run's trajectories.jsonl works too (its verdicts give the pass rate).
// Messages are read from a messages or conversations column, as
// {role, content} or ShareGPT's {from, value}; category and passed columns
// are used when present. tokensFrom is TokensSourceOffline (default) or
// TokensSourceColumn.
func ReadStats(path, tokensFrom string) (*Report, error) {
	files, statsJSON, err := findDataFiles(path)
	if err != nil {
		return nil, err
	}
	rep := &Report{Path: path, Files: files}
	counter := newTokenCounter(tokensFrom)
	for _, f := range files {
		if err := readFileStats(f, counter); err != nil {
			return nil, fmt.Errorf("stats %s: %w", f, err)
		}
	}
	rep.Stats = counter.finish()
	if statsJSON != "" {
		if err := rep.addFunnel(statsJSON); err != nil {
			return nil, fmt.Errorf("stats %s: %w", statsJSON, err)
		}
	}
	if err := rep.addStageTimes(path); err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	return rep, nil
}

// findDataFiles returns the data files at path and the stats.json beside
// them, if any.
func findDataFiles(path string) (files []string, statsJSON string, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, "", fmt.Errorf("stats: %w", err)
	}
	if !fi.IsDir() {
		if !isDataFile(path) {
			return nil, "", fmt.Errorf("stats: %s: not a .parquet, .jsonl or .json file", path)
		}
		return []string{path}, "", nil
	}
	// A run directory's own .jsonl files are journals, not rows: look in
	// its dataset first, then in a dataset directory's data/, then in path.
	for _, dir := range []string{filepath.Join(path, rundir.DatasetDataDir), filepath.Join(path, rundir.DatasetShards), path} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		var found []string
		for _, e := range entries {
			if !e.IsDir() && isDataFile(e.Name()) && e.Name() != rundir.DatasetStats {
				found = append(found, filepath.Join(dir, e.Name()))
			}
		}
		if len(found) == 0 {
			continue
		}
		found = preferParquet(found)
		slices.Sort(found)
		for _, s := range []string{filepath.Join(dir, rundir.DatasetStats), filepath.Join(filepath.Dir(dir), rundir.DatasetStats)} {
			if _, err := os.Stat(s); err == nil {
				statsJSON = s
				break
			}
		}
		return found, statsJSON, nil
	}
	return nil, "", fmt.Errorf("stats: %s: no .parquet, .jsonl or .json files in it, its data/ or its dataset/", path)
}

func isDataFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".parquet", ".jsonl", ".json":
		return true
	}
	return false
}

// preferParquet drops JSONL twins of Parquet shards (a synth dataset written
// with jsonl: true holds both).
func preferParquet(files []string) []string {
	has := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, ".parquet") {
			has[strings.TrimSuffix(f, ".parquet")] = true
		}
	}
	return slices.DeleteFunc(files, func(f string) bool {
		ext := filepath.Ext(f)
		return ext != ".parquet" && has[strings.TrimSuffix(f, ext)]
	})
}

// addFunnel reads the funnel of a synth dataset's stats.json.
func (r *Report) addFunnel(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var v struct {
		Funnel struct {
			Stages []FunnelStage `json:"stages"`
		} `json:"funnel"`
		Hygiene *schemas.HygieneReport `json:"hygiene"`
		Cost    *schemas.CostReport    `json:"cost"`
		Yield   []schemas.YieldStage   `json:"yield"`
		Tasks   struct {
			Grader []GraderRow `json:"grader"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	r.Funnel, r.Hygiene, r.Cost, r.Yield = v.Funnel.Stages, v.Hygiene, v.Cost, v.Yield
	r.Grader = v.Tasks.Grader
	for _, s := range r.Funnel {
		if s.Name != "verify" {
			continue
		}
		var infra int64
		for _, reason := range s.Reasons {
			if reason.Infra {
				infra += reason.Count
				continue
			}
			r.Failures = append(r.Failures, reason)
		}
		if judged := s.In - infra; judged > 0 {
			rate := float64(s.Out) / float64(judged)
			r.RolloutPassRate = &rate
		}
	}
	return nil
}
