package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"time"

	"synth/rundir"
	"synth/schemas"
)

// stagePlan marks the run's plan (rundir.Plan) whole.
const stagePlan = "plan"

// planned is what every stage before the rollouts decided: the files, the
// benchmark (proven, with its reference trajectories), and the training
// tasks left after dedup and decontamination, with the funnel so far.
type planned struct {
	files      *fileSet
	train      []slimTask
	validBench []schemas.Task
	benchRefs  map[string]*schemas.Trajectory
	benchDone  int // benchmark proofs run now
	fn         *funnel
}

// Plan runs every stage except the rollouts into the run directory
// opts.Out: collect, generate, split, filter and the benchmark's validation.
// It writes plan.jsonl, the training tasks that `synth rollout` shards
// share out; the same config always gives the same plan. A second Plan
// reads back what the first did.
func Plan(ctx context.Context, cfg Config, opts Options) (*Summary, error) {
	start := time.Now()
	r := newRun(cfg, opts)
	defer r.close()
	if err := r.open(ctx); err != nil {
		return nil, err
	}
	defer r.saveStageTimes()
	p, err := r.plan(ctx)
	if err != nil {
		return r.sum, err
	}
	p.fn.close()
	r.sum.Elapsed = time.Since(start)
	return r.sum, nil
}

// plan runs collect, generate, split, the task filters and the benchmark's
// validation, and writes the plan.
func (r *run) plan(ctx context.Context) (*planned, error) {
	p, err := r.replan(ctx, false)
	if err != nil {
		return nil, err
	}
	if err := newPlanFile(r).write(p.train); err != nil {
		p.fn.close()
		return nil, err
	}
	return p, nil
}

// replan runs the stages of the plan, or, with readOnly, reads them back
// and fails if any is unfinished (merge: the plan must be whole).
func (r *run) replan(ctx context.Context, readOnly bool) (*planned, error) {
	if readOnly {
		for _, stage := range []string{stageCollect, stageGenerate, stagePlan} {
			if !r.info.done(stage) {
				return nil, fmt.Errorf("%s has no finished plan (stage %s is not done): run synth plan -o %s first", r.dir, stage, r.dir)
			}
		}
	}
	files, err := r.collect(ctx)
	if err != nil {
		return nil, err
	}
	tasks, err := newTaskMaker(r).generate(ctx, files)
	if err != nil {
		return nil, err
	}
	benchTasks, trainTasks, err := r.split(tasks)
	if err != nil {
		return nil, err
	}
	fn, err := newFunnel(r.dir)
	if err != nil {
		return nil, err
	}
	p := &planned{files: files, fn: fn}
	split := readFiles(trainTasks) // filterTasks overwrites trainTasks
	if p.train, err = r.filterTasks(fn, trainTasks, benchTasks); err != nil {
		fn.close()
		return nil, err
	}
	r.readOnly = readOnly
	p.validBench, p.benchRefs, p.benchDone, err = r.validateBench(ctx, fn, benchTasks, files)
	if err == nil {
		err = r.countFiles(fn, files, split, p.train, benchTasks, p.validBench)
	}
	if err != nil {
		fn.close()
		return nil, err
	}
	return p, nil
}

// planFile is a run's plan.jsonl, the training tasks its shards share out,
// and the plan hash run.json records for it: it writes the plan whole and
// reads a shard's part of it back, checked against that hash. It holds the
// run's pieces it uses: dir, info, and tasks, the journal the tasks are
// read back from (slim).
type planFile struct {
	dir   string
	info  *RunInfo
	tasks *taskStore
}

// newPlanFile is the plan file of r, whose run.json is read (r.info is read now).
func newPlanFile(r *run) planFile { return planFile{dir: r.dir, info: r.info, tasks: &r.tasks} }

// write writes plan.jsonl whole, each task with its query and reference
// (read back one at a time when the tasks are held slim), and records its
// hash in run.json.
func (pf planFile) write(train []slimTask) error {
	path := filepath.Join(pf.dir, rundir.Plan)
	hash := planHash(train)
	if pf.info.done(stagePlan) && pf.info.Plan == hash {
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
	return pf.info.markDone(pf.dir, stagePlan)
}

// planHash names a plan by its tasks, in order: shards of one plan carry it.
func planHash(train []slimTask) string {
	h := newPlanHasher()
	for i := range train {
		h.add(train[i].id)
	}
	return h.sum()
}

// planHasher computes planHash one task id at a time.
type planHasher struct{ h hash.Hash }

func newPlanHasher() planHasher { return planHasher{sha256.New()} }

func (p planHasher) add(id string) { fmt.Fprintf(p.h, "%s\n", id) }

func (p planHasher) sum() string { return hex.EncodeToString(p.h.Sum(nil))[:16] }

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
	if !pf.info.done(stagePlan) {
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
