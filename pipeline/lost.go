package pipeline

import (
	"fmt"
	"path/filepath"
	"time"

	"synth/schemas"
)

// lostJournal notes the rollouts lost to infrastructure failures: they are
// not in trajectories.jsonl, so the next run does them again, and this
// file lets it say how many it redoes and keeps what went wrong.
const lostJournal = "lost.jsonl"

// lostRecord is one line of lost.jsonl.
type lostRecord struct {
	ID     string    `json:"id"`
	TaskID string    `json:"task_id"`
	Sample int       `json:"sample"`
	Error  string    `json:"error"`
	Time   time.Time `json:"time"`
}

// lostToInfra reports whether a rollout ended because the teacher's
// endpoint failed past its retries: a loss to redo, not a result.
func lostToInfra(t *schemas.Trajectory) bool {
	return t != nil && t.StopReason == schemas.StopTeacherError && t.Teacher.Kind == "openai"
}

type lostLog struct {
	ids map[string]bool
	j   *Journal
	dir string
}

func openLost(dir string) (*lostLog, error) {
	l := &lostLog{ids: map[string]bool{}, dir: dir}
	err := ReadJournal(filepath.Join(dir, lostJournal), func(r lostRecord) error { l.ids[r.ID] = true; return nil })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lostJournal, err)
	}
	return l, nil
}

// count is how many of the jobs at indexes which an earlier run lost.
func (l *lostLog) count(jobs jobList, which []int32) int {
	n := 0
	for _, i := range which {
		if l.ids[jobs.At(int(i)).id] {
			n++
		}
	}
	return n
}

// add notes a lost rollout; the journal opens on the first.
func (l *lostLog) add(t *schemas.Trajectory) error {
	if l.j == nil {
		j, err := OpenJournal(filepath.Join(l.dir, lostJournal))
		if err != nil {
			return err
		}
		l.j = j
	}
	return l.j.Append(lostRecord{ID: t.ID, TaskID: t.TaskID, Sample: t.Sample, Error: t.Error, Time: time.Now().UTC()})
}

func (l *lostLog) close() error {
	if l.j == nil {
		return nil
	}
	return l.j.Close()
}
