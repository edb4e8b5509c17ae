package agent

import (
	"context"

	"synth/schemas"
)

// Teacher writes the assistant turns of a rollout. It is stateless between
// calls: everything it needs is in the request, so one Teacher serves many
// rollouts at once.
type Teacher interface {
	// Info names the teacher for the trajectory record.
	Info() schemas.TeacherInfo
	// Reply returns the next assistant message for the conversation so far.
	// An error means the teacher could not answer (network, budget, a
	// malformed response that retries did not cure); the rollout then ends
	// with stop reason teacher_error or budget, never as a task failure.
	Reply(ctx context.Context, req Request) (Reply, error)
}

// Request is what a teacher sees.
type Request struct {
	Task     *schemas.Task
	Sample   int
	Messages []schemas.Message
	// MaxTurns is the rollout's cap on assistant turns (0: unknown), so a
	// scripted teacher can plan to finish within it.
	MaxTurns int
}

// Reply is one assistant turn and what it cost.
type Reply struct {
	Message schemas.Message
	Usage   schemas.Usage
	// Truncated says the server cut the message off at its token limit
	// (finish_reason "length"): a code block may lack its end, an answer
	// its last words. The loop ends the rollout without running it.
	Truncated bool
}

// Action is what an assistant turn asks for: code to run, or the end of the
// rollout with a final answer.
type Action struct {
	Code     string // the code of the turn, empty if none
	CallID   string // the tool call being answered (openai-tools format)
	Finished bool   // the turn is the final answer
	Answer   string // the final answer text when Finished
}

// Format is a prompt and message format: how a rollout's conversation starts,
// how an assistant turn is read, and how an observation is sent back.
type Format interface {
	Name() string
	// Start returns the opening messages for a task.
	Start(task *schemas.Task, system string) []schemas.Message
	// Parse reads an assistant turn.
	Parse(msg schemas.Message) Action
	// Observe returns the message(s) that carry a cell's output back.
	Observe(act Action, observation string) []schemas.Message
	// Render writes an assistant turn for an action in this format; thought
	// is the turn's reasoning: an analysis, then, after todoMarker, the
	// step it leads to (see joinThought; without the marker the step is
	// the thought's first line). Teachers that replay known turns (reference,
	// replay, empty) use it.
	Render(act Action, thought string) schemas.Message
	// Tools is the tools field of the dataset row (JSON), nil if the format
	// has none.
	Tools() *string
}
