package agent

import (
	"context"
	"errors"
	"fmt"

	"synth/sandbox"
	"synth/schemas"
)

// DefaultNudge is sent once when a turn has neither code nor a final answer.
const DefaultNudge = "Your last reply had no code and no final answer. Continue with a python code block, or reply with \"Finished: <answer>\" if the task is done."

// Options shape one rollout.
type Options struct {
	ID             string // the trajectory id
	Sample         int
	System         string // system prompt; empty: the format's default
	MaxTurns       int    // assistant turns; default 10
	MaxObservation int    // characters of one observation; default 8000
	Nudge          string // empty: DefaultNudge; "-": never nudge
}

func (o Options) withDefaults() Options {
	if o.MaxTurns <= 0 {
		o.MaxTurns = 10
	}
	if o.MaxObservation <= 0 {
		o.MaxObservation = 8000
	}
	if o.Nudge == "" {
		o.Nudge = DefaultNudge
	}
	return o
}

// stopReason says why a teacher error ended a rollout: the budget is spent,
// the conversation outgrew the model's context (the model's failure), a
// replayed recording ran out, a reply was past the byte limit, or the teacher could not answer at all.
func stopReason(err error) string {
	var budget interface{ Budget() bool }
	var context interface{ ContextLength() bool }
	var long interface{ ReplyTooLong() bool }
	switch {
	case errors.As(err, &long) && long.ReplyTooLong():
		return schemas.StopReplyTooLong
	case errors.As(err, &budget) && budget.Budget():
		return schemas.StopBudget
	case errors.As(err, &context) && context.ContextLength():
		return schemas.StopContextLength
	case errors.Is(err, ErrNotRecorded):
		return schemas.StopRecordingEnded
	}
	return schemas.StopTeacherError
}

// Run plays one rollout of task: the teacher writes turns in format f, the
// sandbox runs their code, and observations go back until the teacher
// finishes, stops writing code, or reaches the turn cap. A teacher or
// sandbox failure ends the rollout with that stop reason and the error text
// in the trajectory; Run returns an error only when ctx is done, so that an
// interrupted rollout is not recorded as finished.
func Run(ctx context.Context, t Teacher, f Format, sb sandbox.Sandbox, task *schemas.Task, opts Options) (*schemas.Trajectory, error) {
	e := Begin(f, sb, task, t.Info(), opts)
	for !e.Done() {
		reply, err := t.Reply(ctx, Request{Task: task, Sample: e.opts.Sample, Messages: e.tr.Messages, MaxTurns: e.opts.MaxTurns})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			e.Stop(stopReason(err), err)
			continue
		}
		if _, err := e.Step(ctx, reply); err != nil {
			return nil, err
		}
	}
	return e.tr, nil
}

// truncate cuts s to at most n characters, keeping the head and the tail
// and saying how much was left out.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head, tail := n*3/4, n/4
	return fmt.Sprintf("%s\n...[%d characters cut]...\n%s", string(r[:head]), len(r)-head-tail, string(r[len(r)-tail:]))
}
