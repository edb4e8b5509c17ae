package pipeline

import (
	"fmt"
	"os"
	"path/filepath"

	"synth/filters"
	"synth/schemas"
)

// filtersLog is where every dropped item is recorded with what it matched.
const filtersLog = "filtered.jsonl"

// funnel counts every filter of a build, in order: the training tasks' dedup
// and decontamination, then the trajectories' rollout, verification,
// quality gates and dedup. Rows written equal its Final count.
type funnel struct {
	*filters.Funnel
	log *os.File
}

const stageTrajDedup = "dedup_trajectories"

// stageBenchValidate counts the benchmark tasks proven before the
// training funnel: its drops name the proof that failed (reference_fails,
// empty_passes, mutant_passes, adversary_<name>_passes).
const stageBenchValidate = "validate_bench"

func (r *run) newFunnel() (*funnel, error) {
	f, err := os.Create(filepath.Join(r.dir, filtersLog))
	if err != nil {
		return nil, fmt.Errorf("filters: %w", err)
	}
	fn := filters.NewFunnel(stageBenchValidate, filters.StageDedup, filters.StageDecon, filters.StageRollout, filters.StageVerify, filters.StageQuality, stageTrajDedup)
	fn.LogTo(f)
	return &funnel{Funnel: fn, log: f}, nil
}

func (f *funnel) close() error { return f.log.Close() }

// filterTasks drops training tasks that duplicate another or overlap the
// benchmark (its queries by n-grams, its input files by content), before any
// rollout is spent on them. It keeps the tasks in train's own array, which
// it overwrites: train is not to be used after.
func (r *run) filterTasks(fn *funnel, train, benchTasks []schemas.Task) ([]schemas.Task, error) {
	dedup := filters.NewDedup(r.cfg.Filters)
	if r.tasks != nil {
		// Slim tasks: dedup reads a kept task's query back when it is a
		// candidate rather than hold every kept task's shingles.
		dedup.ForgetQueries(r.queryOf)
	}
	decon := filters.NewDecontaminator(r.cfg.Filters, benchTasks)
	n := len(train)
	kept := train[:0]
	for i := range train {
		t := &train[i]
		w, err := r.whole(t)
		if err != nil {
			return nil, fmt.Errorf("filter: %w", err)
		}
		if ok, reason, matched := dedup.Keep(w); !ok {
			fn.Drop(filters.StageDedup, t.ID, reason, matched)
			continue
		}
		fn.Pass(filters.StageDedup)
		if ok, reason, matched := decon.Check(w); !ok {
			fn.Drop(filters.StageDecon, t.ID, reason, matched)
			continue
		}
		fn.Pass(filters.StageDecon)
		kept = append(kept, *t)
	}
	if err := dedup.Err(); err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	clear(train[len(kept):]) // what was dropped is not held
	r.sum.add("filter", n, len(kept), "training tasks after dedup and decontamination")
	return kept, nil
}

// filterTrajectories keeps the rollouts that finished without an
// infrastructure failure, passed their checks and the quality gates, and
// are not duplicates. It reads them back from their journals one at a
// time.
func (r *run) filterTrajectories(fn *funnel, trajs []trajRef) ([]trajRef, error) {
	dedup := filters.NewDedup(r.cfg.Filters)
	var kept []trajRef
	for _, ref := range trajs {
		t, err := ref.load()
		if err != nil {
			return nil, fmt.Errorf("filter: %w", err)
		}
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
		if ok, reason, matched := dedup.KeepTrajectory(t); !ok {
			fn.Drop(stageTrajDedup, t.ID, reason, matched)
			continue
		}
		fn.Pass(stageTrajDedup)
		kept = append(kept, ref)
	}
	r.sum.add("filter", len(trajs), len(kept), "trajectories after verification, quality gates and dedup")
	return kept, nil
}
