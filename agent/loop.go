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
	opts = opts.withDefaults()
	info := t.Info()
	info.Format = f.Name()
	tr := &schemas.Trajectory{
		ID:       opts.ID,
		TaskID:   task.ID,
		Sample:   opts.Sample,
		Teacher:  info,
		Messages: f.Start(task, opts.System),
		Steps:    []schemas.Step{},
	}
	nudged := opts.Nudge == "-"
	for turn := 1; ; turn++ {
		if turn > opts.MaxTurns {
			tr.StopReason = schemas.StopMaxTurns
			return tr, nil
		}
		reply, err := t.Reply(ctx, Request{Task: task, Sample: opts.Sample, Messages: tr.Messages, MaxTurns: opts.MaxTurns})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			tr.StopReason = stopReason(err)
			tr.Error = fmt.Sprintf("turn %d: %v", turn, err)
			return tr, nil
		}
		tr.Usage.Add(reply.Usage)
		reply.Message.Role = schemas.RoleAssistant
		tr.Messages = append(tr.Messages, reply.Message)
		if reply.Truncated {
			tr.StopReason = schemas.StopTruncated
			tr.Error = fmt.Sprintf("turn %d: the reply was cut off at the token limit (finish_reason length); raise teacher.max_reply_tokens", turn)
			return tr, nil
		}
		act := f.Parse(reply.Message)
		switch {
		case act.Finished:
			tr.FinalAnswer = act.Answer
			tr.StopReason = schemas.StopFinished
			return tr, nil
		case act.Code == "":
			if nudged {
				tr.StopReason = schemas.StopNoCode
				return tr, nil
			}
			nudged = true
			tr.Messages = append(tr.Messages, schemas.Message{Role: schemas.RoleUser, Content: opts.Nudge})
			continue
		}
		res, err := sb.Exec(ctx, act.Code)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			tr.StopReason = schemas.StopSandboxError
			tr.Error = fmt.Sprintf("turn %d: %v", turn, err)
			return tr, nil
		}
		text := res.Output
		if co, ok := f.(CellObserver); ok {
			text = co.Observation(res)
		}
		obs := truncate(text, opts.MaxObservation)
		tr.Steps = append(tr.Steps, schemas.Step{Code: act.Code, Observation: obs, Status: res.Status, ElapsedMS: res.Elapsed.Milliseconds()})
		tr.Usage.SandboxCPUMS += res.CPU.Milliseconds()
		tr.Messages = append(tr.Messages, f.Observe(act, obs)...)
	}
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
