package agent

import (
	"context"
	"fmt"
	"strings"

	"synth/schemas"
)

// Weak is a scripted weak solver: it does a task's first step only and
// answers with the last line that step printed. For a one-step task the
// first step is the reference's first cell (it reads the input and looks
// at it); for a composed task (Task.Steps dependent steps, a reference of
// load, one cell per step, report) it is the load, the chain's first step
// and the report, as the composed task's proof plays it
// (template.FirstStepOnly). A task it passes does not need its later
// steps: difficulty bands count it easy.
type Weak struct{ format Format }

// NewWeak returns the weak solver writing turns in format f.
func NewWeak(f Format) *Weak { return &Weak{format: f} }

// Info implements Teacher.
func (*Weak) Info() schemas.TeacherInfo { return schemas.TeacherInfo{Kind: "weak"} }

// WeakSteps are the reference steps the weak solver plays; nil when the
// task has no reference.
func WeakSteps(t *schemas.Task) []schemas.RefStep {
	if steps := t.FirstLinkSteps(); steps != nil {
		return steps
	}
	if t.Reference == nil || len(t.Reference.Steps) == 0 {
		return nil
	}
	return t.Reference.Steps[:1]
}

// Reply implements Teacher. Like Reference it keeps no state: the turns so
// far say which step is next.
func (w *Weak) Reply(_ context.Context, req Request) (Reply, error) {
	steps := WeakSteps(req.Task)
	if steps == nil {
		return Reply{}, fmt.Errorf("task %s has no reference solution: the weak solver plays its first step", req.Task.ID)
	}
	obs := observations(req.Messages)
	if n := len(obs); n < len(steps) && (req.MaxTurns <= 0 || n < req.MaxTurns-1) {
		return Reply{Message: w.format.Render(Action{Code: steps[n].Code}, steps[n].Thought)}, nil
	}
	answer := ""
	if len(obs) > 0 {
		answer = lastLine(obs[len(obs)-1])
	}
	return Reply{Message: w.format.Render(Action{Finished: true, Answer: answer}, "")}, nil
}

// lastLine is the last non-blank line of s.
func lastLine(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(ls[len(ls)-1])
}
