package pipeline

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"synth/bench"
	"synth/config"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
	"synth/serve"
)

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
	r := newBuilder(cfg, Options{Out: dir, Log: log})
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

// planInfo reads the run.json of a planned run and its config, refusing a
// run this synth would plan differently.
func planInfo(dir string) (*runinfo.RunInfo, config.Config, error) {
	info, err := runinfo.Read(dir)
	if err != nil {
		return nil, config.Config{}, err
	}
	if info == nil || !info.Done(runinfo.StagePlan) {
		return nil, config.Config{}, fmt.Errorf("%s has no plan: run synth plan -o %s first (with the build's flags)", dir, dir)
	}
	cfg := info.Config
	if h := cfg.Hash(); h != info.ConfigHash {
		return nil, config.Config{}, fmt.Errorf("%w: %s/%s holds config hash %s but its settings hash to %s (another synth version made it?): run synth plan -o %s again",
			ErrConfigChanged, dir, rundir.RunInfo, info.ConfigHash, h, dir)
	}
	return info, cfg, nil
}

// planFile is a run's plan.jsonl, the training tasks its shards share out,
// and the plan hash run.json records for it: it writes the plan whole and
// reads a shard's part of it back, checked against that hash. It holds the
// run's pieces it uses: dir, info, and tasks, the journal the tasks are
// read back from (slim).
type planFile struct {
	dir   string
	info  *runinfo.RunInfo
	tasks *taskStore
}

// newPlanFile is the plan file of r, whose run.json is read (r.info is read now).
func newPlanFile(r *builder) planFile { return planFile{dir: r.dir, info: r.info, tasks: &r.tasks} }

// write writes plan.jsonl whole, each task with its query and reference
// (read back one at a time when the tasks are held slim), and records its
// hash in run.json.
func (pf planFile) write(train []slimTask) error {
	path := filepath.Join(pf.dir, rundir.Plan)
	hash := planHash(train)
	if pf.info.Done(runinfo.StagePlan) && pf.info.Plan == hash {
		if old, err := journalPlanHash(path); err == nil && old == hash {
			return nil // written whole already
		}
	}
	tmp := path + ".tmp"
	os.Remove(tmp)
	j, err := rundir.OpenJournal(tmp)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	for i := range train {
		t, err := pf.tasks.whole(&train[i])
		if err == nil {
			err = j.Append(t)
		}
		if err != nil {
			j.Close()
			return fmt.Errorf("plan: %w", err)
		}
	}
	if err := j.Close(); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	pf.info.Plan = hash
	pf.info.Counts["train_tasks"] = len(train)
	return pf.info.MarkDone(pf.dir, runinfo.StagePlan)
}

// journalPlanHash is the plan hash of a task journal, read one record at a
// time.
func journalPlanHash(path string) (string, error) {
	h := newPlanHasher()
	type idOnly struct {
		ID string `json:"id"`
	}
	err := rundir.ReadJournal(path, func(t idOnly) error { h.add(t.ID); return nil })
	return h.sum(), err
}

// read reads, slim, the training tasks of a finished plan that keep
// accepts, and checks the whole plan against the hash run.json records.
func (pf planFile) read(keep func(*schemas.Task) bool) (mine []slimTask, all int, err error) {
	if !pf.info.Done(runinfo.StagePlan) {
		return nil, 0, fmt.Errorf("%s has no plan: run synth plan -o %s first (with the build's flags)", pf.dir, pf.dir)
	}
	path := filepath.Join(pf.dir, rundir.Plan)
	mine, all, h, err := pf.tasks.read(path, keep)
	if err != nil {
		return nil, 0, fmt.Errorf("plan: %w", err)
	}
	if h != pf.info.Plan {
		return nil, 0, fmt.Errorf("plan %s: its tasks (hash %s) are not the plan "+rundir.RunInfo+" records (%s): run synth plan -o %s again",
			path, h, pf.info.Plan, pf.dir)
	}
	return mine, all, nil
}
