package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"synth/schemas"
)

// ToolName is the one tool of the openai-tools format.
const ToolName = "execute_python"

// toolParameters is the JSON schema of execute_python's arguments.
const toolParameters = `{"type":"object","properties":{"code":{"type":"string","description":"Python code to run. State persists between calls; the value of the last expression is shown."}},"required":["code"]}`

const toolDescription = "Run Python code in a stateful interpreter (like a Jupyter cell) and return its output. Input files are under ./data/; save outputs under ./output/."

// DefaultToolsSystemPrompt is the openai-tools format's system prompt.
const DefaultToolsSystemPrompt = `You are an agent that solves data and programming tasks by writing Python and running it with the execute_python tool.
The interpreter keeps its state between calls. Input files are under ./data/; save every file you produce under ./output/.
Work step by step: say briefly what you will do, then call execute_python with the code for that step, and read its output before the next step.
Do not call input(), plt.show() or cv2.waitKey(); save plots with plt.savefig() under ./output/ and print their path.
When the results fulfil the whole request, reply without a tool call, giving the answer to the user with the figures and file paths it asked for.`

// Tools is the openai-tools format: code goes in an execute_python tool
// call, its output comes back in a tool message, and a reply without a tool
// call is the final answer.
type Tools struct{}

// NewToolsFormat returns the openai-tools format.
func NewToolsFormat() Format { return Tools{} }

// Name implements Format.
func (Tools) Name() string { return "openai-tools" }

// Start implements Format: the system prompt, the upload notice (when the
// task has files), then the query, as in PyBench.
func (Tools) Start(task *schemas.Task, system string) []schemas.Message {
	if system == "" {
		system = DefaultToolsSystemPrompt
	}
	return PyBench{}.Start(task, system)
}

// Parse implements Format. The first execute_python call is the turn's
// code (arguments that are not a JSON object are taken as the code itself,
// as some servers send them); a reply with no call is the final answer, a
// leading "Finished:" removed. An empty reply with no call is neither.
func (Tools) Parse(msg schemas.Message) Action {
	for _, tc := range msg.ToolCalls {
		if tc.Name != ToolName && tc.Name != "python" {
			continue
		}
		return Action{Code: toolCode(tc.Arguments), CallID: tc.ID}
	}
	text := strings.TrimSpace(msg.Content)
	if text == "" {
		return Action{}
	}
	if after, ok := strings.CutPrefix(text, finishedMarker); ok {
		text = strings.TrimSpace(after)
	}
	return Action{Finished: true, Answer: text}
}

func toolCode(args string) string {
	var a struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal([]byte(args), &a); err == nil {
		return a.Code
	}
	return args
}

// Observe implements Format: a tool message answering the call; without a
// call id (a turn replayed from another format) a PyBench user message.
func (Tools) Observe(act Action, observation string) []schemas.Message {
	if act.CallID == "" {
		return PyBench{}.Observe(act, observation)
	}
	return []schemas.Message{{Role: schemas.RoleTool, ToolCallID: act.CallID, Content: observation}}
}

// Render implements Format: the thought as content and the code as a call
// whose id derives from it, or the answer as plain content ("Finished:"
// when the answer is empty, so that it still parses as final).
func (Tools) Render(act Action, thought string) schemas.Message {
	if act.Finished || act.Code == "" {
		text := act.Answer
		if strings.TrimSpace(text) == "" {
			text = finishedMarker
		}
		return schemas.Message{Role: schemas.RoleAssistant, Content: text}
	}
	args, _ := json.Marshal(map[string]string{"code": act.Code})
	id := act.CallID
	if id == "" {
		h := sha256.Sum256([]byte(thought + "\x00" + act.Code))
		id = "call_" + hex.EncodeToString(h[:8])
	}
	return schemas.Message{Role: schemas.RoleAssistant, Content: strings.Replace(thought, todoMarker, "\n", 1),
		ToolCalls: []schemas.ToolCall{{ID: id, Name: ToolName, Arguments: string(args)}}}
}

// Tools implements Format: the execute_python definition, as OpenAI's tools
// field and PyInstruct's tools column hold it.
func (Tools) Tools() *string {
	b, _ := json.Marshal([]any{map[string]any{"type": "function", "function": map[string]any{
		"name": ToolName, "description": toolDescription, "parameters": json.RawMessage(toolParameters)}}})
	s := string(b)
	return &s
}
