package pipeline

import (
	"synth/rundir"
	"synth/schemas"
)

// A trajIndex indexes a rollout journal; the stages after the rollouts
// hold trajRefs, not trajectories.
type (
	trajIndex = rundir.Index[schemas.Trajectory]
	trajRef   = rundir.Ref[schemas.Trajectory]
)

// indexJournal reads the ids of a rollout journal's records. A missing
// journal has none.
func indexJournal(path string) (*trajIndex, error) {
	return rundir.IndexByID[schemas.Trajectory](path)
}
