package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"synth/bench"
	"synth/rundir"
	"synth/schemas"
	"synth/serve"
)

// What synth serve serves from a benchmark folder and where it records.

// ServeBench loads the tasks synth serve serves from dir when it is a
// benchmark folder (tasks.jsonl and data/, as synth eval reads it: tasks
// whose inputs are missing or behind a symlink are left out, with a line on
// log). isBench is false, with no error, when dir is not one (a run
// directory is pipeline.ServePlan's).
func ServeBench(dir string, log io.Writer) (src serve.Source, isBench bool, err error) {
	if log == nil {
		log = io.Discard
	}
	if _, err := os.Stat(filepath.Join(dir, bench.TasksFile)); err != nil {
		return serve.Source{}, false, nil
	}
	if _, err := os.Stat(filepath.Join(dir, bench.DataDir)); err != nil {
		return serve.Source{}, false, nil
	}
	r := &evalRun{cfg: Config{Bench: dir, Scoring: bench.ScoringStrict}, log: log, benchDir: dir}
	if err := r.loadTasks(); err != nil {
		return serve.Source{}, false, err
	}
	return serve.Source{Name: dir, Tasks: r.tasks, Inputs: r.inputs}, true, nil
}

// ServeRecord journals synth serve's finished episodes as an eval results
// folder: eval.json (the benchmark or run served), results.jsonl (one
// bench.Result per episode, its trajectory and verdict included) and
// artifacts/, so that synth view shows them; Close writes summary.json and
// report.md from every episode recorded there, as synth eval scores.
type ServeRecord struct {
	dir     string
	source  string // the benchmark folder or run directory served
	j       *rundir.Journal
	tasks   []schemas.Task
	mu      sync.Mutex
	samples map[string]int // episodes recorded per task
}

// serveTeacher is the teacher kind of a recorded episode: the policy that
// talked to synth serve.
const serveTeacher = "serve"

// OpenServeRecord makes or reopens the record folder dir for the tasks of
// source (a benchmark folder or run directory); a folder holding another
// eval is refused.
func OpenServeRecord(dir, source string, tasks []schemas.Task, version string) (*ServeRecord, error) {
	if err := os.MkdirAll(filepath.Join(dir, rundir.ArtifactsDir), 0o755); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	abs, err := filepath.Abs(source)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	path := filepath.Join(dir, rundir.EvalInfo)
	var prev evalInfo
	if b, err := os.ReadFile(path); err == nil {
		if json.Unmarshal(b, &prev) != nil || prev.Teacher.Kind != serveTeacher || prev.Bench != abs {
			return nil, fmt.Errorf("record %s holds another eval or the episodes of another source (not %s): give --record a new folder", dir, abs)
		}
	}
	ei := evalInfo{Key: serveTeacher, Bench: abs, Teacher: prev.Teacher, Version: version, Started: prev.Started}
	ei.Teacher.Kind = serveTeacher
	if ei.Started.IsZero() {
		ei.Started = time.Now().UTC()
	}
	b, _ := json.MarshalIndent(ei, "", "  ")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	rec := &ServeRecord{dir: dir, source: abs, tasks: tasks, samples: map[string]int{}}
	results := filepath.Join(dir, rundir.EvalResults)
	if err := rundir.ReadJournal(results, func(r bench.Result) error { rec.samples[r.TaskID]++; return nil }); err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("record: %w", err)
	}
	if rec.j, err = rundir.OpenJournal(results); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return rec, nil
}

// Store is the artifact store episodes collect into.
func (r *ServeRecord) Store() string { return filepath.Join(r.dir, rundir.ArtifactsDir) }

// Record appends a finished episode, as the next sample of its task, and
// syncs it to disk.
func (r *ServeRecord) Record(task *schemas.Task, t *schemas.Trajectory) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	t.Sample = r.samples[task.ID]
	res := bench.ResultOf(task, t, 1)
	if err := r.j.Append(res); err != nil {
		return err
	}
	if err := r.j.Sync(); err != nil {
		return err
	}
	r.samples[task.ID]++
	return nil
}

// Close closes the journal and scores what it holds: summary.json and
// report.md, as synth eval writes them.
func (r *ServeRecord) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.j.Close(); err != nil {
		return err
	}
	results, err := rundir.ReadAll[bench.Result](filepath.Join(r.dir, rundir.EvalResults))
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	sum := bench.Score(r.tasks, results, bench.ScoreOptions{})
	sum.Teacher, sum.Bench, sum.Scoring = serveTeacher, r.source, bench.ScoringStrict
	if err := writeSummary(r.dir, sum); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.dir, rundir.EvalReport), []byte(bench.Report(sum, r.tasks, results)), 0o644)
}

var _ serve.Recorder = (*ServeRecord)(nil)
