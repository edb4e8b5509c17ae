package pipeline

import (
	"fmt"
	"path/filepath"
	"time"

	"synth/rundir"
	"synth/schemas"
)

// lostToInfra reports whether a rollout ended because the teacher's
// endpoint failed past its retries: a loss to redo, not a result.
func lostToInfra(t *schemas.Trajectory) bool {
	return t != nil && t.StopReason == schemas.StopTeacherError && t.Teacher.Kind == "openai"
}

type lostLog struct {
	ids map[string]bool
	j   *rundir.Journal
	dir string
}

func openLost(dir string) (*lostLog, error) {
	l := &lostLog{ids: map[string]bool{}, dir: dir}
	err := rundir.ReadJournal(filepath.Join(dir, rundir.Lost), func(r rundir.LostRollout) error { l.ids[r.ID] = true; return nil })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rundir.Lost, err)
	}
	return l, nil
}

// add notes a lost rollout; the journal opens on the first.
func (l *lostLog) add(t *schemas.Trajectory) error {
	if l.j == nil {
		j, err := rundir.OpenJournal(filepath.Join(l.dir, rundir.Lost))
		if err != nil {
			return err
		}
		l.j = j
	}
	return l.j.Append(rundir.LostRollout{ID: t.ID, TaskID: t.TaskID, Sample: t.Sample, Error: t.Error, Time: time.Now().UTC()})
}

func (l *lostLog) close() error {
	if l.j == nil {
		return nil
	}
	return l.j.Close()
}
