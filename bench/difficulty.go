package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"synth/schemas"
)

// DifficultyFile is the benchmark's difficulty: each task's steps, its
// pass rates under the offline teachers and its band (synth bench
// difficulty writes it, synth bench calibrate rewrites the bands). It is
// left out of the content hash, as the card is: recalibrating the bands
// does not make another benchmark.
const DifficultyFile = "difficulty.json"

// maxDifficultyBytes bounds the difficulty file a benchmark may hold.
const maxDifficultyBytes = 64 << 20

// The difficulty bands, easiest first.
const (
	BandEasy   = "easy"
	BandMedium = "medium"
	BandHard   = "hard"
)

// Bands lists the bands, easiest first.
var Bands = []string{BandEasy, BandMedium, BandHard}

// Band sources.
const (
	BandsOffline    = "offline"
	BandsCalibrated = "calibrated"
)

// OfflineRule and CalibratedRule say how each source sets a band.
const (
	OfflineRule    = "easy: the weak solver (first step only) passes; hard: a composed task of 3 or more dependent steps the weak solver fails; medium: the rest"
	CalibratedRule = "by the model's pass rate on the task: easy at 0.75 or more, hard at 0.25 or less, medium between; a task the model did not run keeps its offline band"
)

// Difficulty is DifficultyFile.
type Difficulty struct {
	Bands BandInfo         `json:"bands"`
	Tasks []TaskDifficulty `json:"tasks"`
}

// BandInfo says where the bands came from.
type BandInfo struct {
	Source string `json:"source"` // BandsOffline or BandsCalibrated
	Rule   string `json:"rule"`
	// Results, Model and Calibrated: the eval results folder, its model
	// (or teacher) and how many tasks it banded, for calibrated bands.
	Results    string `json:"results,omitempty"`
	Model      string `json:"model,omitempty"`
	Calibrated int    `json:"calibrated,omitempty"`
}

// TaskDifficulty is one task's line of DifficultyFile.
type TaskDifficulty struct {
	Index  string `json:"index"`
	TaskID string `json:"task_id"`
	// Steps is the task's number of steps: its dependent steps when it is
	// composed (Task.Steps), else 1.
	Steps int `json:"steps"`
	// PassRates holds the share of rollouts that passed under each offline
	// teacher: reference, empty, weak and adversary:NAME.
	PassRates map[string]float64 `json:"pass_rates"`
	Band      string             `json:"band"`
	// ModelPassRate is the calibrating model's pass rate on the task.
	ModelPassRate *float64 `json:"model_pass_rate,omitempty"`
}

// StepsOf is a task's number of steps for its difficulty.
func StepsOf(t *schemas.Task) int { return max(1, t.Steps) }

// OfflineBand is a task's band from its steps and the weak solver's pass
// rate (OfflineRule).
func OfflineBand(steps int, weak float64) string {
	switch {
	case weak > 0:
		return BandEasy
	case steps >= 3:
		return BandHard
	}
	return BandMedium
}

// CalibratedBand is a task's band from a model's pass rate on it
// (CalibratedRule).
func CalibratedBand(rate float64) string {
	switch {
	case rate >= 0.75:
		return BandEasy
	case rate <= 0.25:
		return BandHard
	}
	return BandMedium
}

// LoadDifficulty reads dir's DifficultyFile; ok is false when there is
// none. A benchmark folder is untrusted: a file over its size bound, a
// band that is not one of Bands, a task without an index or an index
// given twice is an error naming the file.
func LoadDifficulty(dir string) (d Difficulty, ok bool, err error) {
	p := filepath.Join(dir, DifficultyFile)
	st, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return d, false, nil
	}
	if err != nil {
		return d, false, fmt.Errorf("bench %s: %w", dir, err)
	}
	if !st.Mode().IsRegular() || st.Size() > maxDifficultyBytes {
		return d, true, fmt.Errorf("bench %s: %s is not a regular file of at most %d bytes; run synth bench difficulty %s again", dir, DifficultyFile, maxDifficultyBytes, dir)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return d, true, fmt.Errorf("bench %s: %w", dir, err)
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return d, true, fmt.Errorf("bench %s: %s: %w", dir, DifficultyFile, err)
	}
	seen := map[string]bool{}
	for i, t := range d.Tasks {
		switch {
		case t.Index == "" || seen[t.Index]:
			return d, true, fmt.Errorf("bench %s: %s task %d: index %q is empty or given twice", dir, DifficultyFile, i+1, t.Index)
		case !slices.Contains(Bands, t.Band):
			return d, true, fmt.Errorf("bench %s: %s task %s: band %q is not one of %v", dir, DifficultyFile, t.Index, t.Band, Bands)
		}
		seen[t.Index] = true
	}
	return d, true, nil
}

// WriteDifficulty writes d into dir's DifficultyFile.
func WriteDifficulty(dir string, d Difficulty) error {
	return writeJSON(filepath.Join(dir, DifficultyFile), d)
}

// BandOf maps each task (by index and id) to its band.
func (d Difficulty) BandOf(tasks []schemas.Task) map[string]string {
	byIndex := map[string]TaskDifficulty{}
	for _, t := range d.Tasks {
		byIndex[t.Index] = t
	}
	out := map[string]string{}
	for _, t := range tasks {
		if td, ok := byIndex[t.Index]; ok && td.TaskID == t.ID {
			out[t.ID] = td.Band
		}
	}
	return out
}

// Calibrate rewrites d's bands from a model's results on the benchmark
// whose tasks are tasks: each task the results hold (matched by index and
// id) takes CalibratedBand of the model's pass rate, infrastructure
// failures not counted; the others keep theirs. model and results name
// the run in BandInfo. It returns how many tasks it banded.
func (d *Difficulty) Calibrate(tasks []schemas.Task, rs []Result, model, results string) int {
	ids := map[string]string{} // index -> task id
	for _, t := range tasks {
		ids[t.Index] = t.ID
	}
	passed, ran := map[string]int{}, map[string]int{}
	for _, r := range rs {
		if r.Infra || ids[r.Index] != r.TaskID || r.TaskID == "" {
			continue
		}
		ran[r.Index]++
		if r.Passed {
			passed[r.Index]++
		}
	}
	n := 0
	for i := range d.Tasks {
		t := &d.Tasks[i]
		if ran[t.Index] == 0 || ids[t.Index] != t.TaskID {
			continue
		}
		rate := float64(passed[t.Index]) / float64(ran[t.Index])
		t.ModelPassRate, t.Band = &rate, CalibratedBand(rate)
		n++
	}
	d.Bands = BandInfo{Source: BandsCalibrated, Rule: CalibratedRule, Results: results, Model: model, Calibrated: n}
	return n
}

// ScoreBands is the figures of each band's tasks; bandOf maps a task id to
// its band (Difficulty.BandOf). Tasks without a band are left out.
func ScoreBands(tasks []schemas.Task, results []Result, bandOf map[string]string, opts ScoreOptions) map[string]Group {
	by := map[string][]schemas.Task{}
	for _, t := range tasks {
		if b, ok := bandOf[t.ID]; ok {
			by[b] = append(by[b], t)
		}
	}
	out := map[string]Group{}
	for b, ts := range by {
		out[b] = Score(ts, results, opts).Group
	}
	return out
}
