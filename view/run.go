package view

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"synth/rundir"
	"synth/schemas"
)

var hexID = regexp.MustCompile(`^[0-9a-f]{64}$`)

// runFiles reaches a run directory's tasks, files and filter records by id.
type runFiles struct {
	in       *input
	tasks    *rundir.Index[schemas.Task]
	files    *rundir.Index[schemas.File]
	filtered *rundir.Index[dropRecord]
}

// dropRecord is a line of rundir.Filtered: an item a filter dropped.
type dropRecord struct{ Stage, Reason, Matched string }

func openRunFiles(in *input) (*runFiles, error) {
	rf := &runFiles{in: in}
	var err error
	if rf.tasks, err = optionalIndex[schemas.Task](filepath.Join(in.dir, rundir.Tasks), idKey); err != nil {
		return nil, err
	}
	if rf.files, err = optionalIndex[schemas.File](filepath.Join(in.dir, rundir.Files), idKey); err != nil {
		return nil, err
	}
	itemKey := func(line []byte) string {
		var d struct {
			Item string `json:"item"`
		}
		if json.Unmarshal(line, &d) != nil {
			return ""
		}
		return d.Item
	}
	if rf.filtered, err = optionalIndex[dropRecord](filepath.Join(in.dir, rundir.Filtered), itemKey); err != nil {
		return nil, err
	}
	return rf, nil
}

func (rf *runFiles) close() { closeIndex(rf.tasks); closeIndex(rf.files); closeIndex(rf.filtered) }

// writeRun writes a page per line of the run's trajectories.jsonl.
func (s *site) writeRun(ctx context.Context, in *input) ([]Overview, error) {
	rf, err := openRunFiles(in)
	if err != nil {
		return nil, err
	}
	defer rf.close()
	path := filepath.Join(in.dir, rundir.Trajectories)
	bad := 0
	err = eachLine(path, func(line []byte, num int, _ int64) error {
		var tr schemas.Trajectory
		if err := json.Unmarshal(line, &tr); err != nil {
			bad++
			s.logf("view: %s:%d: skipped: %v", path, num, err)
			return nil
		}
		p, err := s.runPage(rf, &tr)
		if err != nil {
			return err
		}
		return s.add(ctx, p)
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	ov := runOverview(in)
	if bad > 0 {
		ov.Figures = append(ov.Figures, Figure{"unreadable lines skipped", fmt.Sprint(bad)})
	}
	return []Overview{ov}, nil
}

// runPage is the page of one trajectory of a run.
func (s *site) runPage(rf *runFiles, tr *schemas.Trajectory) (*Page, error) {
	p := &Page{Kind: KindRun}
	task, err := lookup(rf.tasks, tr.TaskID)
	if err != nil {
		return nil, err
	}
	side := sideOf(rf.in.label, tr)
	if task != nil {
		p.Task = taskV(task)
		p.Task.Files = s.runInputs(rf, task.Files)
	} else {
		p.Task = TaskV{ID: tr.TaskID, Query: queryOf(tr.Messages)}
	}
	side.Artifacts = s.artifacts(rf.in, tr.Artifacts)
	for _, id := range []string{tr.ID, tr.TaskID} {
		if d, err := lookup(rf.filtered, id); err == nil && d != nil {
			side.Dropped = d.Stage + ": " + d.Reason
			if d.Matched != "" {
				side.Dropped += ": " + d.Matched
			}
			break
		}
	}
	p.Sides = []*Side{side}
	return p, nil
}

// runInputs are a task's input files as stored in the run's files/.
func (s *site) runInputs(rf *runFiles, files []schemas.TaskFile) []*Media {
	var ms []*Media
	for _, tf := range files {
		found, _ := lookup(rf.files, tf.ID)
		var f schemas.File
		if found != nil {
			f = *found
		}
		if !hexID.MatchString(tf.ID) || !isPlainName(f.Name) {
			ms = append(ms, &Media{Name: tf.Name, Show: ShowNone, Note: "not in the run's files/"})
			continue
		}
		m := s.mediaOf(rf.in, rundir.FilesDir+"/"+tf.ID[:2]+"/"+tf.ID+"/"+f.Name, tf.Name, f.Size, tf.ID)
		if found != nil {
			m.Preview = f.Preview
		}
		ms = append(ms, m)
	}
	return ms
}

// artifacts are a rollout's artifacts as stored in the input's artifacts/.
func (s *site) artifacts(in *input, as []schemas.Artifact) []*Media {
	var ms []*Media
	for _, a := range as {
		if !hexID.MatchString(a.SHA256) {
			ms = append(ms, &Media{Name: a.Path, Size: a.Size, Show: ShowNone, Note: "no stored copy (its sha256 is not a hash)"})
			continue
		}
		ms = append(ms, s.mediaOf(in, rundir.ArtifactsDir+"/"+a.SHA256[:2]+"/"+a.SHA256, a.Path, a.Size, a.SHA256))
	}
	return ms
}

// isPlainName says whether name is one path element.
func isPlainName(name string) bool {
	return name != "" && name != "." && name != ".." && filepath.Base(name) == name && !containsSlash(name)
}

func containsSlash(s string) bool {
	for _, r := range s {
		if r == '/' || r == '\\' {
			return true
		}
	}
	return false
}

// runOverview reads run.json's counts and the dataset's funnel.
func runOverview(in *input) Overview {
	ov := Overview{Label: in.label, Kind: KindRun}
	var ri struct {
		Version  string              `json:"synth_version"`
		Started  string              `json:"started"`
		Finished string              `json:"finished"`
		Counts   map[string]int      `json:"counts"`
		Stages   []schemas.StageTime `json:"stage_times"`
	}
	if found, err := rundir.ReadRunInfo(in.dir, &ri); found && err == nil {
		var keys []string
		for k := range ri.Counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ov.Figures = append(ov.Figures, Figure{k, fmt.Sprint(ri.Counts[k])})
		}
		if ri.Version != "" {
			ov.Figures = append(ov.Figures, Figure{"synth version", ri.Version})
		}
		if ri.Finished != "" {
			ov.Figures = append(ov.Figures, Figure{"finished", ri.Finished})
		}
	}
	// The build's stages (collect, generate, …, emit), then the filters'.
	for _, st := range ri.Stages {
		stage := Stage{Name: st.Stage, In: int64(st.In), Out: int64(st.Out)}
		if w := st.Wall(); w > 0 {
			stage.Note = fmt.Sprintf("%.1f s", w.Seconds())
		}
		ov.Stages = append(ov.Stages, stage)
	}
	for _, st := range readFunnel(filepath.Join(in.dir, rundir.DatasetDir, rundir.DatasetStats)) {
		st.Name = "filter: " + st.Name
		ov.Stages = append(ov.Stages, st)
	}
	return ov
}

// readFunnel reads the filter funnel from a dataset's stats.json; nil when
// there is none.
func readFunnel(path string) []Stage {
	var st struct {
		Funnel struct {
			Stages []Stage `json:"stages"`
		} `json:"funnel"`
	}
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &st) != nil {
		return nil
	}
	return st.Funnel.Stages
}

func (s *site) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, format+"\n", args...)
	}
}
