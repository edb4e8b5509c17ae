package agent

import (
	"context"
	"fmt"

	"synth/schemas"
)

// Reference plays a task's reference solution through the loop: one turn per
// reference step, then "Finished:" with the reference answer. It is offline
// and deterministic; the quickstart, benchmark validation and tests use it.
type Reference struct{ format Format }

// NewReference returns the reference teacher writing turns in format f.
func NewReference(f Format) *Reference { return &Reference{format: f} }

// Info implements Teacher.
func (*Reference) Info() schemas.TeacherInfo { return schemas.TeacherInfo{Kind: "reference"} }

// Reply implements Teacher. The turn to play is the number of assistant
// turns so far, so the teacher keeps no state between calls.
func (r *Reference) Reply(_ context.Context, req Request) (Reply, error) {
	ref := req.Task.Reference
	if ref == nil {
		return Reply{}, fmt.Errorf("task %s has no reference solution: the reference teacher can only play tasks from the template writer or with a reference", req.Task.ID)
	}
	n := assistantTurns(req.Messages)
	if n < len(ref.Steps) {
		st := ref.Steps[n]
		return Reply{Message: r.format.Render(Action{Code: st.Code}, st.Thought)}, nil
	}
	return Reply{Message: r.format.Render(Action{Finished: true, Answer: ref.Answer}, "")}, nil
}

func assistantTurns(msgs []schemas.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == schemas.RoleAssistant {
			n++
		}
	}
	return n
}
