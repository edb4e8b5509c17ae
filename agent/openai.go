package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"synth/llm"
	"synth/schemas"
)

// OpenAI is a teacher backed by any OpenAI-compatible endpoint, writing
// turns in the pybench or the openai-tools format.
type OpenAI struct {
	c     *llm.Client
	cfg   Config
	model string
	tools bool
}

// NewOpenAI returns the openai teacher. cfg.Format picks the format the
// requests ask for (openai-tools sends the execute_python tool); Model,
// Temperature, TopP and MaxReplyTokens shape every request.
func NewOpenAI(c *llm.Client, cfg Config) Teacher {
	model := cfg.Model
	if model == "" {
		model = c.Model()
	}
	return &OpenAI{c: c, cfg: cfg, model: model, tools: cfg.Format == Tools{}.Name()}
}

// Info implements Teacher.
func (o *OpenAI) Info() schemas.TeacherInfo {
	f := o.cfg.Format
	if f == "" {
		f = PyBench{}.Name()
	}
	return schemas.TeacherInfo{Kind: "openai", Model: o.model, Endpoint: strings.Join(o.c.Endpoints(o.model), ","), Format: f}
}

// Reply implements Teacher. Samples of one task are cached apart, so a
// rerun replays each sample's own replies. Errors keep their llm
// classification (llm.IsBudget, llm.IsFatal).
func (o *OpenAI) Reply(ctx context.Context, req Request) (Reply, error) {
	temp := DefaultTemperature
	if o.cfg.Temperature != nil {
		temp = *o.cfg.Temperature
	}
	lr := llm.Request{
		Model:       o.model,
		Messages:    req.Messages,
		Temperature: &temp,
		TopP:        o.cfg.TopP,
		MaxTokens:   o.cfg.MaxReplyTokens,
		CacheSalt:   fmt.Sprintf("%s/%d", req.Task.ID, req.Sample),
	}
	if o.tools {
		lr.Tools = []llm.Tool{{Name: ToolName, Description: toolDescription, Parameters: json.RawMessage(toolParameters)}}
		lr.Extra = map[string]any{"tool_choice": "auto", "parallel_tool_calls": false}
	}
	resp, err := o.c.Chat(ctx, lr)
	if err != nil {
		return Reply{}, fmt.Errorf("teacher openai: %w", err)
	}
	msg := resp.Message
	msg.Role = schemas.RoleAssistant
	if o.tools {
		msg = firstToolCall(msg, assistantTurns(req.Messages))
	} else {
		msg.Content = cutInventedObservation(msg.Content)
	}
	return Reply{Message: msg, Usage: resp.Usage, Truncated: resp.FinishReason == "length"}, nil
}

// firstToolCall keeps only the first execute_python call of a turn, since
// the loop runs one cell per turn and every kept call must be answered,
// and gives it an id if the server sent none.
func firstToolCall(msg schemas.Message, turn int) schemas.Message {
	for _, tc := range msg.ToolCalls {
		if tc.Name == ToolName || tc.Name == "python" {
			if tc.ID == "" {
				tc.ID = fmt.Sprintf("call_%d", turn)
			}
			msg.ToolCalls = []schemas.ToolCall{tc}
			return msg
		}
	}
	msg.ToolCalls = nil
	return msg
}

// cutInventedObservation drops what a model writes after its code as if it
// were the interpreter: the real observation follows instead.
func cutInventedObservation(s string) string {
	if i := strings.Index(s, "\n"+observationPrefix[:len(observationPrefix)-1]); i >= 0 {
		return strings.TrimRight(s[:i], " \n")
	}
	return s
}
