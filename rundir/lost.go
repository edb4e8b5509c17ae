package rundir

import "time"

// LostRollout is one line of Lost (lost.jsonl): a rollout that ended
// because the teacher's endpoint failed past its retries. It is not in
// Trajectories, so the next run does it again; this record lets that run
// say how many it redoes and keeps what went wrong.
type LostRollout struct {
	ID     string    `json:"id"`
	TaskID string    `json:"task_id"`
	Sample int       `json:"sample"`
	Error  string    `json:"error"`
	Time   time.Time `json:"time"`
}
