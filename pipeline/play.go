package pipeline

import (
	"synth/rollout"
	"synth/runner"
)

// A build plays its rollouts through package rollout, which synth eval
// shares.

// errAbandoned is a rollout cut short by the end of the grace period; it is
// not recorded, so the next run does it again.
var errAbandoned = runner.ErrAbandoned

// played is jb as package rollout plays it; a training job's task must be
// loaded first.
func (jb job) played() rollout.Job {
	return rollout.Job{ID: jb.id, Task: jb.task, Sample: jb.sample, Teacher: jb.teacher, Format: jb.format}
}
