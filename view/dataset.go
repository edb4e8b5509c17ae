package view

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"synth/dataset"
	"synth/rundir"
	"synth/schemas"
)

// writeDataset writes a page per row of a dataset's Parquet shards. When
// the dataset is a run's (RUN/dataset), each row's page is its trajectory's
// in the run, with the task, input files and artifacts; otherwise it is
// what the row holds: the messages and the columns beside them.
func (s *site) writeDataset(ctx context.Context, in *input) ([]Overview, error) {
	shards := parquetFiles(in.dir)
	var rf *runFiles
	var trajs *rundir.Index[schemas.Trajectory]
	if run := runOfDataset(in.dir); run != "" {
		root, err := s.addRoot(run, filepath.Base(run), KindRun)
		if err != nil {
			return nil, err
		}
		if rf, err = openRunFiles(root); err != nil {
			return nil, err
		}
		defer rf.close()
		if trajs, err = optionalIndex[schemas.Trajectory](filepath.Join(run, rundir.Trajectories), idKey); err != nil {
			return nil, err
		}
		defer closeIndex(trajs)
	}
	for _, shard := range shards {
		err := dataset.ReadRows(shard, func(r *schemas.Row) error {
			if tr, err := lookup(trajs, r.ID); err != nil {
				return err
			} else if tr != nil {
				p, err := s.runPage(rf, tr)
				if err != nil {
					return err
				}
				p.Kind = KindDataset
				p.Sides[0].Label = in.label
				return s.add(ctx, p)
			}
			return s.add(ctx, rowPage(in.label, r))
		})
		if err != nil {
			return nil, fmt.Errorf("view: %s: %w", shard, err)
		}
	}
	ov := Overview{Label: in.label, Kind: KindDataset, Figures: []Figure{{"shards", fmt.Sprint(len(shards))}}}
	for _, p := range []string{filepath.Join(in.dir, rundir.DatasetStats), filepath.Join(filepath.Dir(in.dir), rundir.DatasetStats)} {
		if st := readFunnel(p); st != nil {
			ov.Stages = st
			break
		}
	}
	return []Overview{ov}, nil
}

// rowPage is the page of a dataset row without its run.
func rowPage(label string, r *schemas.Row) *Page {
	passed := r.Passed
	sd := &Side{Label: label, ID: r.ID, Teacher: r.Teacher, Turns: int(r.Turns), Passed: &passed, Messages: make([]schemas.Message, len(r.Messages))}
	for i, m := range r.Messages {
		sd.Messages[i] = schemas.Message{Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID}
	}
	return &Page{Kind: KindDataset, Task: TaskV{ID: r.TaskID, Category: r.Category, Subcategory: r.Subcategory,
		FileTypes: r.FileTypes, Query: queryOf(sd.Messages)}, Sides: []*Side{sd}}
}

// runOfDataset is the run directory a dataset folder belongs to (the
// folder is RUN/dataset or RUN/dataset/data), or "".
func runOfDataset(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for _, c := range []string{filepath.Dir(abs), filepath.Dir(filepath.Dir(abs))} {
		if _, err := os.Stat(filepath.Join(c, rundir.Trajectories)); err == nil {
			return c
		}
	}
	return ""
}
