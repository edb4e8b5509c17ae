package pipeline

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"synth/filters"
	"synth/rundir"
	"synth/schemas"
)

// funnel counts every filter of a build, in order: the training tasks' dedup
// and decontamination, then the trajectories' rollout, verification,
// quality gates and dedup. Rows written equal its Final count.
type funnel struct {
	*filters.Funnel
	log *os.File
}

const stageTrajDedup = "dedup_trajectories"

// stageVerdictClass, counted only when dataset.verdict_classes is set and
// then last, drops rows of the classes it leaves out.
const stageVerdictClass = "verdict_class"

// stageBenchValidate counts the benchmark tasks proven before the
// training funnel: its drops name the proof that failed (ambiguous_truth, reference_fails,
// empty_passes, mutant_passes, adversary_<name>_passes).
const stageBenchValidate = "validate_bench"

// newFunnel is the build's funnel, logging every drop to dir's filters
// log.
func newFunnel(dir string) (*funnel, error) {
	f, err := os.Create(filepath.Join(dir, rundir.Filtered))
	if err != nil {
		return nil, fmt.Errorf("filters: %w", err)
	}
	fn := filters.NewFunnel(stageFiles, stageBenchValidate, filters.StageDedup, filters.StageDecon, filters.StageRollout, filters.StageVerify, filters.StageQuality, filters.StageHygiene, stageTrajDedup)
	fn.LogTo(f)
	return &funnel{Funnel: fn, log: f}, nil
}

func (f *funnel) close() error { return f.log.Close() }

// filterTasks drops training tasks that duplicate another or overlap the
// benchmark (its queries by n-grams, its input files by content), before any
// rollout is spent on them. It keeps the tasks in train's own array, which
// it overwrites: train is not to be used after.
func (r *builder) filterTasks(fn *funnel, train []slimTask, benchTasks []schemas.Task) ([]slimTask, error) {
	drops, err := taskDrops(r.cfg.Filters, &r.tasks, train, benchTasks)
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	n := len(train)
	kept := train[:0]
	for i := range train {
		t := &train[i]
		if d, ok := drops[int32(i)]; ok {
			if d.stage == filters.StageDecon {
				fn.Pass(filters.StageDedup)
			}
			fn.Drop(d.stage, t.id, d.reason, d.matched)
			continue
		}
		fn.Pass(filters.StageDedup)
		fn.Pass(filters.StageDecon)
		kept = append(kept, *t)
	}
	clear(train[len(kept):]) // what was dropped is not held
	r.sum.add("filter", n, len(kept), "training tasks after dedup and decontamination")
	return kept, nil
}

// taskDrop is why filterTasks drops a training task.
type taskDrop struct{ stage, reason, matched string }

// taskDrops runs dedup and decontamination, as cfg says, on train (read
// whole from tasks) and returns the tasks
// they drop, by index. Dedup sees one scope at a time (filters.Dedup.Scope:
// tasks of different scopes are never duplicates), each in train's order,
// and forgets each scope before the next: it holds the largest scope's
// tasks, not the run's. The result is that of one pass in train's order.
func taskDrops(cfg filters.Config, tasks *taskStore, train []slimTask, benchTasks []schemas.Task) (map[int32]taskDrop, error) {
	dedup := filters.NewDedup(cfg)
	// Dedup holds no kept task's query: it reads a candidate's back, from
	// the tasks of the scope at hand.
	inScope := map[string]*slimTask{}
	dedup.ForgetQueries(func(id string) (string, error) {
		s, ok := inScope[id]
		if !ok {
			return "", fmt.Errorf("task %s is not in the scope dedup is in", id)
		}
		w, err := tasks.whole(s)
		if err != nil {
			return "", err
		}
		return w.Query, nil
	})
	decon := filters.NewDecontaminator(cfg, benchTasks)
	scopes := make([]uint64, len(train))
	order := make([]int32, len(train))
	for i := range train {
		scopes[i], order[i] = dedup.Scope(train[i].meta), int32(i) // a scope is of the input files only
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(scopes[a], scopes[b]) })
	drops := map[int32]taskDrop{}
	for k, i := range order {
		if k > 0 && scopes[i] != scopes[order[k-1]] {
			dedup.Forget()
			inScope = map[string]*slimTask{}
		}
		inScope[train[i].id] = &train[i]
		w, err := tasks.whole(&train[i])
		if err != nil {
			return nil, err
		}
		if ok, reason, matched := dedup.Keep(w); !ok {
			drops[i] = taskDrop{filters.StageDedup, reason, matched}
		} else if ok, reason, matched := decon.Check(w); !ok {
			drops[i] = taskDrop{filters.StageDecon, reason, matched}
		}
	}
	return drops, dedup.Err()
}

// filterTrajectories keeps the rollouts that finished without an
// infrastructure failure, passed their checks, the quality gates and the
// hygiene gate, and are not duplicates; what the hygiene gate measured goes
// into run.json (and from there the card). It reads them back from their journals one at a
// time, and returns the kept in trajs' own array, which it overwrites.
func (r *builder) filterTrajectories(fn *funnel, trajs []trajRef) ([]trajRef, error) {
	dedup := filters.NewDedup(r.cfg.Filters)
	hygiene := filters.NewHygiene(r.cfg.Filters)
	var cost schemas.CostReport
	n := len(trajs)
	kept := trajs[:0] // in trajs' own array: kept never runs ahead of the loop
	// Every trajectory dedup keeps is kept: the n-th is kept[n], whose id
	// is read back when a repeat names it.
	dedup.ForgetTrajectoryIDs(func(n int) (string, error) {
		t, err := kept[n].Load()
		if err != nil {
			return "", err
		}
		return t.ID, nil
	})
	for _, ref := range trajs {
		t, err := ref.Load()
		if err != nil {
			return nil, fmt.Errorf("filter: %w", err)
		}
		cost.Add(t)
		v := t.Verdict
		if filters.IsInfra(v.Failure) || v.Failure == schemas.FailBudget {
			fn.Drop(filters.StageRollout, t.ID, v.Failure, t.Error)
			continue
		}
		fn.Pass(filters.StageRollout)
		if !v.Passed {
			fn.Drop(filters.StageVerify, t.ID, v.Failure, failedChecks(t))
			continue
		}
		fn.Pass(filters.StageVerify)
		if ok, reason, detail := filters.Gate(r.cfg.Filters, t); !ok {
			fn.Drop(filters.StageQuality, t.ID, reason, detail)
			continue
		}
		fn.Pass(filters.StageQuality)
		if ok, reason, detail := hygiene.Check(t); !ok {
			fn.Drop(filters.StageHygiene, t.ID, reason, detail)
			continue
		}
		fn.Pass(filters.StageHygiene)
		if ok, reason, matched := dedup.KeepTrajectory(t); !ok {
			fn.Drop(stageTrajDedup, t.ID, reason, matched)
			continue
		}
		fn.Pass(stageTrajDedup)
		if c := schemas.VerdictClassOf(t); len(r.cfg.Dataset.VerdictClasses) > 0 {
			if !slices.Contains(r.cfg.Dataset.VerdictClasses, c) {
				fn.Drop(stageVerdictClass, t.ID, "class_"+c, "dataset.verdict_classes: "+strings.Join(r.cfg.Dataset.VerdictClasses, ", "))
				continue
			}
			fn.Pass(stageVerdictClass)
		}
		hygiene.Keep(t)
		kept = append(kept, ref)
	}
	h := hygiene.Report()
	r.info.Hygiene = &h
	cost.Finish(r.cfg.Dataset.CPUPrice(), int64(len(kept)))
	r.info.Cost = &cost
	if err := dedup.Err(); err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	r.sum.add("filter", n, len(kept), "trajectories after verification, quality and hygiene gates and dedup")
	return kept, nil
}

func failedChecks(t *schemas.Trajectory) string {
	if t.Error != "" {
		return t.Error
	}
	if t.Verdict == nil {
		return "no verdict"
	}
	for _, c := range t.Verdict.Checks {
		if !c.OK {
			return c.Kind + ": " + c.Message
		}
	}
	return t.Verdict.Failure
}

// stageFiles counts, first in the funnel, the collected files that got a
// task; its drops name each file that got none, with why.
const stageFiles = "files"
