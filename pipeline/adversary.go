package pipeline

import (
	"context"
	"fmt"
	"strings"

	"synth/agent"
	"synth/checks/adversary"
	"synth/sandbox"
	"synth/schemas"
)

// adversaryPrefix starts a teacher kind that plays an adversary:
// adversary:shotgun, adversary:forged_code, ...
const adversaryPrefix = "adversary:"

// adversaryTeacher plays one adversary's rollout through the real sandbox,
// as a one-cell solution: it writes the adversary's files (the workspace
// root included) and gives its answer. inputs finds a task's input files.
type adversaryTeacher struct {
	adv    adversary.Adversary
	ref    *agent.Reference
	inputs func(*schemas.Task) []sandbox.Input
}

// newAdversaryTeacher returns the teacher of kind "adversary:NAME".
func newAdversaryTeacher(kind string, f agent.Format, inputs func(*schemas.Task) []sandbox.Input) (agent.Teacher, error) {
	name := strings.TrimPrefix(kind, adversaryPrefix)
	a, ok := adversary.Named(name)
	if !ok {
		return nil, fmt.Errorf("teacher %q: no adversary %q (want one of %s)", kind, name, strings.Join(adversary.Names(), ", "))
	}
	return adversaryTeacher{adv: a, ref: agent.NewReference(f), inputs: inputs}, nil
}

func (a adversaryTeacher) Info() schemas.TeacherInfo {
	return schemas.TeacherInfo{Kind: adversaryPrefix + a.adv.Name}
}

func (a adversaryTeacher) Reply(ctx context.Context, req agent.Request) (agent.Reply, error) {
	r, _, err := a.adv.Make(req.Task, a.inputs(req.Task))
	if err != nil {
		return agent.Reply{}, fmt.Errorf("adversary %s: task %s: %w", a.adv.Name, req.Task.ID, err)
	}
	t := *req.Task
	t.Reference = r.Reference()
	req.Task = &t
	return a.ref.Reply(ctx, req)
}

// isAdversary reports whether a teacher kind names an adversary.
func isAdversary(kind string) bool { return strings.HasPrefix(kind, adversaryPrefix) }

// adversaryProof is the teacher of one adversary's record in benchmark
// validation. Its rollout is not played: the task's validation job
// (proveTask) verifies every adversary's files in one batch with the
// reference's and the mutant's outputs, and records each adversary's
// verdict under this teacher.
type adversaryProof struct{ name string }

func (a adversaryProof) Info() schemas.TeacherInfo {
	return schemas.TeacherInfo{Kind: adversaryPrefix + a.name}
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
		jobs = append(jobs, job{id: trajectoryID(t.ID, 0, tch, format, cfg), task: t, teacher: tch, format: format})
	}
	return jobs, nil
}
