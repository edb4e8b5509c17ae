package pipeline

import (
	"context"
	"fmt"

	"synth/agent"
	"synth/checks/adversary"
	"synth/rollout"
	"synth/sandbox"
	"synth/schemas"
)

// adversaryProof is the teacher of one adversary's record in benchmark
// validation. Its rollout is not played: the task's validation job
// (proveTask) verifies every adversary's files in one batch with the
// reference's and the mutant's outputs, and records each adversary's
// verdict under this teacher. (A teacher kind adversary:NAME that plays an
// adversary is rollout.NewAdversaryTeacher.)
type adversaryProof struct{ name string }

func (a adversaryProof) Info() schemas.TeacherInfo {
	return schemas.TeacherInfo{Kind: rollout.AdversaryPrefix + a.name}
}

func (a adversaryProof) Reply(context.Context, agent.Request) (agent.Reply, error) {
	return agent.Reply{}, fmt.Errorf("adversary %s is verified in a batch, not played", a.name)
}

// adversaryJobs are the adversary records of a task: one per adversary that
// applies to it.
func adversaryJobs(t *schemas.Task, inputs []sandbox.Input, format agent.Format, cfg agent.Config) ([]job, error) {
	var jobs []job
	for _, a := range adversary.All() {
		if _, ok, err := a.Make(t, inputs); err != nil {
			return nil, fmt.Errorf("task %s: adversary %s: %w", t.ID, a.Name, err)
		} else if !ok {
			continue
		}
		tch := adversaryProof{name: a.Name}
		jobs = append(jobs, job{id: rollout.ID(t.ID, 0, tch, format, cfg), task: t, teacher: tch, format: format})
	}
	return jobs, nil
}
