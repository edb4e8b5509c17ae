package agent

import (
	"context"
	"fmt"

	"synth/sandbox"
	"synth/schemas"
)

// Episode is a rollout whose assistant turns come from outside, one at a
// time: Run feeds it a teacher's replies, and an environment server (synth
// serve) feeds it the messages a policy under training writes. Every turn
// is read, run and answered as in Run, so the two produce the same
// trajectory for the same turns. An Episode is not safe for concurrent use.
type Episode struct {
	f      Format
	sb     sandbox.Sandbox
	task   *schemas.Task
	opts   Options
	tr     *schemas.Trajectory
	turn   int // assistant turns taken
	nudged bool
}

// Begin opens an episode of task in format f with the sandbox sb (which the
// caller owns and closes). Its trajectory holds the opening messages.
func Begin(f Format, sb sandbox.Sandbox, task *schemas.Task, teacher schemas.TeacherInfo, opts Options) *Episode {
	opts = opts.withDefaults()
	teacher.Format = f.Name()
	return &Episode{
		f: f, sb: sb, task: task, opts: opts, nudged: opts.Nudge == "-",
		tr: &schemas.Trajectory{
			ID: opts.ID, TaskID: task.ID, Sample: opts.Sample, Teacher: teacher,
			Messages: f.Start(task, opts.System), Steps: []schemas.Step{},
		},
	}
}

// Trajectory is the episode so far; once Done, the finished rollout.
func (e *Episode) Trajectory() *schemas.Trajectory { return e.tr }

// Done says the episode has ended; the trajectory's StopReason says why.
func (e *Episode) Done() bool { return e.tr.StopReason != "" }

// Turns is how many assistant turns the episode has taken.
func (e *Episode) Turns() int { return e.turn }

// MaxTurns is the episode's turn cap.
func (e *Episode) MaxTurns() int { return e.opts.MaxTurns }

// Stop ends the episode with reason and the error that caused it, unless it
// has ended already.
func (e *Episode) Stop(reason string, err error) {
	if e.Done() {
		return
	}
	e.tr.StopReason = reason
	if err != nil {
		e.tr.Error = fmt.Sprintf("turn %d: %v", e.turn+1, err)
	}
}

// StepResult is what one assistant turn led to.
type StepResult struct {
	// Messages are those the turn added after the assistant's own: the
	// cell's observation, or the nudge. Empty when the turn ended the
	// episode without running code.
	Messages []schemas.Message
	// Cell is the cell the turn ran, nil when it ran none.
	Cell *sandbox.Result
}

// Step takes the next assistant turn: a final answer ends the episode, code
// runs in the sandbox and its observation is appended, a turn with neither
// is nudged once and then ends the episode (no_code), and a turn past the
// cap ends it (max_turns). A sandbox failure ends the episode with
// sandbox_error. The error is ctx's, when it ended the turn; the episode is
// then unusable. Step on a finished episode does nothing.
func (e *Episode) Step(ctx context.Context, reply Reply) (StepResult, error) {
	if e.Done() {
		return StepResult{}, nil
	}
	e.turn++
	e.tr.Usage.Add(reply.Usage)
	reply.Message.Role = schemas.RoleAssistant
	e.tr.Messages = append(e.tr.Messages, reply.Message)
	if reply.Truncated {
		e.tr.StopReason = schemas.StopTruncated
		e.tr.Error = fmt.Sprintf("turn %d: the reply was cut off at the token limit (finish_reason length); raise teacher.max_reply_tokens", e.turn)
		return StepResult{}, nil
	}
	var res StepResult
	act := e.f.Parse(reply.Message)
	switch {
	case act.Finished:
		e.tr.FinalAnswer = act.Answer
		e.tr.StopReason = schemas.StopFinished
		return res, nil
	case act.Code == "":
		if e.nudged {
			e.tr.StopReason = schemas.StopNoCode
			return res, nil
		}
		e.nudged = true
		res.Messages = []schemas.Message{{Role: schemas.RoleUser, Content: e.opts.Nudge}}
	default:
		cell, err := e.sb.Exec(ctx, act.Code)
		if err != nil {
			if ctx.Err() != nil {
				return StepResult{}, ctx.Err()
			}
			e.tr.StopReason = schemas.StopSandboxError
			e.tr.Error = fmt.Sprintf("turn %d: %v", e.turn, err)
			return res, nil
		}
		text := cell.Output
		if co, ok := e.f.(CellObserver); ok {
			text = co.Observation(cell)
		}
		obs := truncate(text, e.opts.MaxObservation)
		e.tr.Steps = append(e.tr.Steps, schemas.Step{Code: act.Code, Observation: obs, Status: cell.Status, ElapsedMS: cell.Elapsed.Milliseconds()})
		e.tr.Usage.SandboxCPUMS += cell.CPU.Milliseconds()
		res.Messages, res.Cell = e.f.Observe(act, obs), &cell
	}
	e.tr.Messages = append(e.tr.Messages, res.Messages...)
	if e.turn >= e.opts.MaxTurns {
		e.tr.StopReason = schemas.StopMaxTurns
	}
	return res, nil
}
