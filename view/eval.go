package view

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"synth/bench"
	"synth/rundir"
	"synth/schemas"
)

// evalFiles reaches one results folder's records by task and sample.
type evalFiles struct {
	in      *input
	results *rundir.Index[bench.Result]
	bench   *input                      // the benchmark folder, when found
	tasks   *rundir.Index[schemas.Task] // its tasks.jsonl
}

// resultKey joins the results of two evals: the task and the sample.
func resultKey(line []byte) string {
	var r struct {
		TaskID string `json:"task_id"`
		Index  string `json:"index"`
		Sample int    `json:"sample"`
	}
	if json.Unmarshal(line, &r) != nil {
		return ""
	}
	id := r.TaskID
	if id == "" {
		id = "#" + r.Index
	}
	return fmt.Sprintf("%s\x00%d", id, r.Sample)
}

func (s *site) openEval(in *input) (*evalFiles, error) {
	ef := &evalFiles{in: in}
	var err error
	if ef.results, err = optionalIndex[bench.Result](filepath.Join(in.dir, rundir.EvalResults), resultKey); err != nil {
		return nil, err
	}
	if ef.results == nil {
		return nil, fmt.Errorf("view: %s has no %s: is the eval still starting? (synth eval -o %s writes it)", in.dir, rundir.EvalResults, in.dir)
	}
	if dir := benchDirOf(in.dir); dir != "" {
		if ef.bench, err = s.addRoot(dir, "bench", "bench"); err != nil {
			return nil, err
		}
		if ef.tasks, err = optionalIndex[schemas.Task](filepath.Join(dir, bench.TasksFile), idKey); err != nil {
			return nil, err
		}
	}
	return ef, nil
}

func (ef *evalFiles) close() { closeIndex(ef.results); closeIndex(ef.tasks) }

// benchDirOf finds the benchmark an eval ran: eval.json's bench, as given
// (relative to where synth eval ran) or relative to the results folder's
// parent; "" when neither holds a tasks.jsonl.
func benchDirOf(dir string) string {
	var ei struct {
		Bench string `json:"bench"`
	}
	b, err := os.ReadFile(filepath.Join(dir, rundir.EvalInfo))
	if err != nil || json.Unmarshal(b, &ei) != nil || ei.Bench == "" {
		return ""
	}
	for _, c := range []string{ei.Bench, filepath.Join(filepath.Dir(dir), ei.Bench)} {
		if _, err := os.Stat(filepath.Join(c, bench.TasksFile)); err == nil {
			return c
		}
	}
	return ""
}

// writeEvals writes a page per task and sample of the first eval, with the
// second eval's rollout of the same task and sample beside it, then a page
// for each of the second's that the first lacks.
func (s *site) writeEvals(ctx context.Context, ins []*input) ([]Overview, error) {
	var efs []*evalFiles
	for _, in := range ins {
		ef, err := s.openEval(in)
		if err != nil {
			return nil, err
		}
		defer ef.close()
		efs = append(efs, ef)
	}
	seen := map[string]bool{}
	for i, ef := range efs {
		path := filepath.Join(ef.in.dir, rundir.EvalResults)
		err := eachLine(path, func(line []byte, num int, off int64) error {
			key := resultKey(line)
			if last, _ := ef.results.Ref(key); last.Offset() != off || seen[key] {
				return nil // a later record of the same rollout replaces it, or shown already
			}
			seen[key] = true
			p := &Page{Kind: KindEval}
			taskSet := false
			for j, other := range efs {
				var r bench.Result
				if j == i {
					if err := json.Unmarshal(line, &r); err != nil {
						return fmt.Errorf("view: %s:%d: %w", path, num, err)
					}
				} else if found, err := other.results.Load(key); err != nil {
					return err
				} else if found != nil {
					r = *found
				} else {
					p.Sides = append(p.Sides, &Side{Label: other.in.label, Missing: "this eval has no rollout of the task and sample", Messages: []schemas.Message{}})
					continue
				}
				if !taskSet {
					p.Task, taskSet = s.evalTask(efs, &r), true
				}
				p.Sides = append(p.Sides, s.evalSide(other, &r))
			}
			return s.add(ctx, p)
		})
		if err != nil {
			return nil, err
		}
	}
	var ovs []Overview
	for _, ef := range efs {
		ovs = append(ovs, evalOverview(ef.in))
	}
	return ovs, nil
}

// evalTask is the task of result r, from the first benchmark that has it.
func (s *site) evalTask(efs []*evalFiles, r *bench.Result) TaskV {
	for _, ef := range efs {
		if t, _ := lookup(ef.tasks, r.TaskID); t != nil {
			v := taskV(t)
			for _, f := range t.Files {
				if !isLocalSlash(f.Name) {
					v.Files = append(v.Files, &Media{Name: f.Name, Show: ShowNone, Note: "not a name under data/"})
					continue
				}
				v.Files = append(v.Files, s.mediaOf(ef.bench, bench.DataDir+"/"+f.Name, f.Name, 0, ""))
			}
			return v
		}
	}
	v := TaskV{ID: r.TaskID, Index: r.Index, Category: r.Category, Subcategory: r.Subcategory, FileTypes: r.FileTypes}
	if r.Traj != nil {
		v.Query = queryOf(r.Traj.Messages)
	}
	return v
}

func (s *site) evalSide(ef *evalFiles, r *bench.Result) *Side {
	var sd *Side
	if r.Traj != nil {
		sd = sideOf(ef.in.label, r.Traj)
		sd.Artifacts = s.artifacts(ef.in, r.Traj.Artifacts)
	} else {
		sd = &Side{Label: ef.in.label, ID: r.ID, Sample: r.Sample, Messages: []schemas.Message{},
			Missing: "no trajectory recorded (" + r.Failure + ")"}
	}
	sd.Infra, sd.Attempts, sd.Judge = r.Infra, r.Attempts, r.Judge
	if r.Turns > 0 {
		sd.Turns = r.Turns
	}
	if sd.Verdict == nil && r.Traj != nil {
		passed := r.Passed
		sd.Passed = &passed
	}
	return sd
}

// isLocalSlash says whether name is a relative slash path that stays below
// its folder.
func isLocalSlash(name string) bool {
	return name != "" && filepath.IsLocal(filepath.FromSlash(name))
}

// evalOverview reads an eval's summary.json.
func evalOverview(in *input) Overview {
	ov := Overview{Label: in.label, Kind: KindEval}
	var sum bench.Summary
	b, err := os.ReadFile(filepath.Join(in.dir, rundir.EvalSummary))
	if err != nil || json.Unmarshal(b, &sum) != nil {
		ov.Figures = append(ov.Figures, Figure{"summary", "none yet (" + rundir.EvalSummary + " is written when the eval ends)"})
		return ov
	}
	model := sum.Model
	if model == "" {
		model = sum.Teacher
	}
	ov.Figures = append(ov.Figures,
		Figure{"model", model},
		Figure{"pass@1", fmt.Sprintf("%.1f%% (%d of %d rollouts, %d tasks)", 100*sum.PassRate, sum.Passed, sum.Rollouts, sum.Tasks)},
		Figure{"average turns (passed)", fmt.Sprintf("%.2f", sum.AvgTurns)},
		Figure{"tokens", fmt.Sprint(sum.Tokens)},
		Figure{"cost", fmt.Sprintf("$%.4f", sum.CostUSD)})
	var cats []string
	for c := range sum.PerCategory {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		g := sum.PerCategory[c]
		ov.Stages = append(ov.Stages, Stage{Name: c, In: int64(g.Rollouts), Out: int64(g.Passed)})
	}
	return ov
}
