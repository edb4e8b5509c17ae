package agent

import (
	"context"
	"fmt"
	"hash/fnv"

	"synth/schemas"
)

// Sloppy is an offline teacher with bad habits: it plays the reference
// solution as Reference does, but each rollout also shows one habit a
// model trained on its row would learn, which the hygiene gate is there to
// catch (filters.Inspect):
//
//   - HabitRepeatedCell: its first cell run twice in a row;
//   - HabitErrorLoop: three cells that fail with the same error before it
//     starts (different code each time, so the cells are not repeats);
//   - HabitRepeatedTurn: its first turn written again two turns later.
//
// The habit is picked by the task and sample, so a build's rollouts show
// all three. The extra cells only read or fail, so the rollout still
// reaches the reference's files and answer and passes its checks: only the
// hygiene gate tells its rows from good ones. Like Reference it keeps no
// state: each reply replays the conversation so far.
type Sloppy struct{ ref *Reference }

// NewSloppy returns the sloppy teacher writing turns in format f.
func NewSloppy(f Format) *Sloppy { return &Sloppy{ref: NewReference(f)} }

// The sloppy teacher's habits, one per rollout.
const (
	HabitRepeatedCell = "repeated_cell"
	HabitErrorLoop    = "error_loop"
	HabitRepeatedTurn = "repeated_turn"
)

// Info implements Teacher.
func (*Sloppy) Info() schemas.TeacherInfo { return schemas.TeacherInfo{Kind: "sloppy"} }

// HabitOf is the habit the sloppy teacher shows in sample of task.
func HabitOf(taskID string, sample int) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s\x00%d", taskID, sample)
	return []string{HabitRepeatedCell, HabitErrorLoop, HabitRepeatedTurn}[h.Sum32()%3]
}

// insertion is an extra assistant turn at a position of the conversation
// (counted in assistant turns): a copy of an earlier turn, or new code.
type insertion struct {
	at      int
	copyOf  int // the assistant turn copied, or -1
	code    string
	thought string
}

// insertions are the extra turns of habit, in order of position.
func insertions(habit string) []insertion {
	switch habit {
	case HabitRepeatedCell:
		return []insertion{{at: 1, copyOf: 0}}
	case HabitErrorLoop:
		var out []insertion
		for i := range 3 {
			out = append(out, insertion{at: i, copyOf: -1,
				code:    fmt.Sprintf("import pandas as pd\n# attempt %d\ndf = pd.read_csv('data.csv')", i+1),
				thought: fmt.Sprintf("Load the data (attempt %d).%sRead data.csv.", i+1, todoMarker)})
		}
		return out
	default: // HabitRepeatedTurn: a look at the data between, so the cells are not consecutive
		return []insertion{{at: 1, copyOf: -1, code: "print(len(df))", thought: "Count the rows again." + todoMarker + "Print the row count."}, {at: 2, copyOf: 0}}
	}
}

// Reply implements Teacher.
func (s *Sloppy) Reply(ctx context.Context, req Request) (Reply, error) {
	turns := assistantIndexes(req.Messages)
	ins := insertions(HabitOf(req.Task.ID, req.Sample))
	extra := map[int]insertion{}
	for _, in := range ins {
		extra[in.at] = in
	}
	if in, ok := extra[len(turns)]; ok && (in.copyOf < 0 || in.copyOf < len(turns)) {
		return Reply{Message: s.render(req.Messages, turns, in)}, nil
	}
	// The reference sees the conversation without the extra turns (and the
	// messages answering them), with its turn cap lowered by as many.
	skip := map[int]bool{}
	for at := range extra {
		if at < len(turns) {
			skip[at] = true
		}
	}
	r := req
	r.Messages = withoutTurns(req.Messages, skip)
	if r.MaxTurns > 0 {
		r.MaxTurns = max(r.MaxTurns-len(ins), 2)
	}
	return s.ref.Reply(ctx, r)
}

// render writes the extra turn in: a copy of an earlier turn keeps its
// text and code (a tool call gets an id of its own, as a model's would).
func (s *Sloppy) render(msgs []schemas.Message, turns []int, in insertion) schemas.Message {
	if in.copyOf < 0 {
		return s.ref.format.Render(Action{Code: in.code}, in.thought)
	}
	m := msgs[turns[in.copyOf]]
	m.ToolCalls = append([]schemas.ToolCall(nil), m.ToolCalls...)
	for i := range m.ToolCalls {
		m.ToolCalls[i].ID += fmt.Sprintf("_again%d", len(turns))
	}
	return m
}

// assistantIndexes are the indexes of msgs' assistant messages.
func assistantIndexes(msgs []schemas.Message) []int {
	var out []int
	for i, m := range msgs {
		if m.Role == schemas.RoleAssistant {
			out = append(out, i)
		}
	}
	return out
}

// withoutTurns is msgs without the assistant turns numbered in skip and
// the messages that answer each (up to the next assistant turn).
func withoutTurns(msgs []schemas.Message, skip map[int]bool) []schemas.Message {
	if len(skip) == 0 {
		return msgs
	}
	out := make([]schemas.Message, 0, len(msgs))
	n, dropping := -1, false
	for _, m := range msgs {
		if m.Role == schemas.RoleAssistant {
			n++
			dropping = skip[n]
		}
		if !dropping {
			out = append(out, m)
		}
	}
	return out
}
