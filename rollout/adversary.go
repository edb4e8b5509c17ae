package rollout

import (
	"context"
	"fmt"
	"strings"

	"synth/agent"
	"synth/checks/adversary"
	"synth/sandbox"
	"synth/schemas"
)

// AdversaryPrefix starts a teacher kind that plays an adversary:
// adversary:shotgun, adversary:forged_code, ...
const AdversaryPrefix = "adversary:"

// IsAdversary reports whether a teacher kind names an adversary.
func IsAdversary(kind string) bool { return strings.HasPrefix(kind, AdversaryPrefix) }

// adversaryTeacher plays one adversary's rollout through the real sandbox,
// as a one-cell solution: it writes the adversary's files (the workspace
// root included) and gives its answer. inputs finds a task's input files.
type adversaryTeacher struct {
	adv    adversary.Adversary
	ref    *agent.Reference
	inputs func(*schemas.Task) []sandbox.Input
}

// NewAdversaryTeacher returns the teacher of kind "adversary:NAME", which
// finds a task's input files with inputs.
func NewAdversaryTeacher(kind string, f agent.Format, inputs func(*schemas.Task) []sandbox.Input) (agent.Teacher, error) {
	name := strings.TrimPrefix(kind, AdversaryPrefix)
	a, ok := adversary.Named(name)
	if !ok {
		return nil, fmt.Errorf("teacher %q: no adversary %q (want one of %s)", kind, name, strings.Join(adversary.Names(), ", "))
	}
	return adversaryTeacher{adv: a, ref: agent.NewReference(f), inputs: inputs}, nil
}

func (a adversaryTeacher) Info() schemas.TeacherInfo {
	return schemas.TeacherInfo{Kind: AdversaryPrefix + a.adv.Name}
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
