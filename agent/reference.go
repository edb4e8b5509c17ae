package agent

import (
	"context"
	"fmt"
	"strings"

	"synth/schemas"
)

// Reference is the offline teacher: a scripted agent that plays a task's
// reference solution the way an agent works through a task. It looks at
// the data first (shape and head, then the column types), splits long
// steps at natural points, sometimes makes a realistic mistake (a file
// path without ./data/, a misspelt column, a conversion of text that holds
// numbers, dates of mixed layouts parsed as ISO, a save into a folder of
// output/ it has not created) and recovers from it, and writes each turn's
// Analyse from the output it just saw. Every extra cell only reads, and a
// step that failed on its missing folder is finished by the next cell, so
// the reference's statements each run once, in order: the files written and
// the final answer are the reference solution's; the quickstart, benchmark
// validation, `eval --teacher reference` and tests rely on that.
//
// It is deterministic: the same task, sample and observations give the
// same turns. It is a script, not a model: it plans nothing the reference
// does not already do.
type Reference struct{ format Format }

// NewReference returns the reference teacher writing turns in format f.
func NewReference(f Format) *Reference { return &Reference{format: f} }

// Info implements Teacher.
func (*Reference) Info() schemas.TeacherInfo { return schemas.TeacherInfo{Kind: "reference"} }

// maxCodeTurns keeps a scripted rollout within the default turn cap (10
// assistant turns, the last one "Finished:"); a smaller cap in the request
// shrinks the script further, down to the reference steps alone.
const maxCodeTurns = 9

// Reply implements Teacher. The teacher keeps no state between calls: it
// replays its script over the observations so far to find the turn to
// write, so one Reference serves many rollouts at once.
func (r *Reference) Reply(_ context.Context, req Request) (Reply, error) {
	ref := req.Task.Reference
	if ref == nil {
		return Reply{}, fmt.Errorf("task %s has no reference solution: the reference teacher can only play tasks from the template writer or with a reference", req.Task.ID)
	}
	obs := observations(req.Messages)
	budget := maxCodeTurns
	if req.MaxTurns > 0 && req.MaxTurns-1 < budget {
		budget = req.MaxTurns - 1
	}
	t, ok := play(newScript(req.Task, req.Sample, budget), obs)
	if !ok {
		return Reply{Message: r.format.Render(Action{Finished: true, Answer: ref.Answer}, "")}, nil
	}
	return Reply{Message: r.format.Render(Action{Code: t.code}, joinThought(t.analyse, t.todo))}, nil
}

// observations returns, per assistant turn so far, the text of the message
// that answered it (without the format's prefix); "" when none did.
func observations(msgs []schemas.Message) []string {
	var out []string
	for i, m := range msgs {
		if m.Role != schemas.RoleAssistant {
			continue
		}
		o := ""
		if i+1 < len(msgs) && msgs[i+1].Role != schemas.RoleAssistant {
			o = strings.TrimPrefix(msgs[i+1].Content, observationPrefix)
		}
		out = append(out, o)
	}
	return out
}

// todoMarker separates a turn's analysis from its step in the thought
// handed to Format.Render; PyBench writes the parts as "Analyse:" and
// "This Step Todo:".
const todoMarker = "\nThis Step Todo: "

// joinThought is the thought of a turn with an analysis and a step.
func joinThought(analyse, todo string) string {
	if todo == "" {
		return analyse
	}
	return analyse + todoMarker + todo
}

// splitThought undoes joinThought; a thought without a step is its own
// step, as PyBench's turns were before the two differed.
func splitThought(thought string) (analyse, todo string) {
	if a, t, ok := strings.Cut(thought, todoMarker); ok {
		return a, t
	}
	return thought, firstLine(thought)
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
