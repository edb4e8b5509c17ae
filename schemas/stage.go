package schemas

import "time"

// StageTime is what one stage of a run cost, as run.json records it:
// when it started and ended, the CPU synth's own process used meanwhile
// (sandboxed interpreters are counted per rollout, in Usage), and the
// stage's funnel counts.
type StageTime struct {
	Stage      string    `json:"stage"`
	Started    time.Time `json:"started"`
	Ended      time.Time `json:"ended"`
	CPUSeconds float64   `json:"cpu_seconds"`
	In         int       `json:"in"`
	Out        int       `json:"out"`
}

// Wall is the stage's wall time.
func (s StageTime) Wall() time.Duration { return s.Ended.Sub(s.Started) }
