package eval

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"synth/agent"
	"synth/bench"
	"synth/checks/adversary"
	"synth/rollout"
)

// bands adds the figures per difficulty band to sum when the benchmark has
// a difficulty file; one that does not load is said in the log and left
// out (the benchmark folder is untrusted).
func (r *evalRun) bands(sum *bench.Summary, results []bench.Result) {
	d, ok, err := bench.LoadDifficulty(r.cfg.Bench)
	if err != nil {
		fmt.Fprintf(r.log, "eval: no figures per difficulty band: %v\n", err)
		return
	}
	if !ok {
		return
	}
	sum.PerBand = bench.ScoreBands(r.tasks, results, d.BandOf(r.tasks), bench.ScoreOptions{Samples: r.samples(), TurnCap: r.turnCap()})
	sum.Bands = d.Bands.Source
}

// OfflineTeachers are the teachers whose pass rates a task's difficulty
// records: reference, empty, weak, and every adversary.
func OfflineTeachers() []string {
	out := []string{TeacherReference, TeacherEmpty, TeacherWeak}
	for _, n := range adversary.Names() {
		out = append(out, rollout.AdversaryPrefix+n)
	}
	return out
}

// MeasureDifficulty evaluates cfg.Bench with each of teachers (one
// sample each, its variant split left out) in folders under a temporary
// directory, and returns each task's steps, its pass rate under every
// teacher and its offline band (bench.OfflineBand, from the weak solver's
// rate; a task the weak solver was not run on is banded by its steps).
// cfg gives the sandbox and the task selection; opts the backend and log.
func MeasureDifficulty(ctx context.Context, cfg Config, opts Options, teachers []string) (bench.Difficulty, error) {
	d := bench.Difficulty{Bands: bench.BandInfo{Source: bench.BandsOffline, Rule: bench.OfflineRule}}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	tmp, err := os.MkdirTemp("", "synth-difficulty-")
	if err != nil {
		return d, fmt.Errorf("difficulty: %w", err)
	}
	defer os.RemoveAll(tmp)
	rates := map[string]map[string]float64{} // task id -> teacher -> rate
	for _, kind := range teachers {
		c := cfg
		c.Teacher, c.SkipVariants, c.Judge, c.Scoring = agent.Config{Kind: kind, Samples: 1}, true, JudgeConfig{}, ""
		o := opts
		o.Out = filepath.Join(tmp, strings.ReplaceAll(kind, ":", "_"))
		fmt.Fprintf(opts.Log, "difficulty: teacher %s\n", kind)
		if _, err := Evaluate(ctx, c, o); err != nil {
			return d, fmt.Errorf("difficulty: teacher %s: %w", kind, err)
		}
		f, err := LoadFolder(o.Out)
		if err != nil {
			return d, err
		}
		for id, rate := range passRates(f.Results) {
			if rates[id] == nil {
				rates[id] = map[string]float64{}
			}
			rates[id][kind] = rate
		}
	}
	all, err := bench.Load(cfg.Bench)
	if err != nil {
		return d, err
	}
	for _, t := range all {
		rs, ok := rates[t.ID]
		if !ok {
			continue
		}
		steps := bench.StepsOf(&t)
		d.Tasks = append(d.Tasks, bench.TaskDifficulty{Index: t.Index, TaskID: t.ID, Steps: steps, PassRates: rs,
			Band: bench.OfflineBand(steps, rs[TeacherWeak])})
	}
	return d, nil
}

// passRates is each task's share of passed rollouts, infrastructure
// failures not counted.
func passRates(rs []bench.Result) map[string]float64 {
	passed, ran := map[string]int{}, map[string]int{}
	for _, r := range rs {
		if r.Infra {
			continue
		}
		ran[r.TaskID]++
		if r.Passed {
			passed[r.TaskID]++
		}
	}
	out := map[string]float64{}
	for id, n := range ran {
		out[id] = float64(passed[id]) / float64(n)
	}
	return out
}
