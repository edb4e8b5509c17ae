package dataset

import "synth/schemas"

// The openai-tools layout: the PyInstruct columns, with each message
// carrying the OpenAI chat fields tool_calls (a list, empty when none) and
// tool_call_id (null when none), so a row's messages can be passed to a chat
// template or an OpenAI-compatible fine-tuning API as they are.
type toolsRow struct {
	Messages    []toolsMessage `parquet:"messages,list"`
	Tools       *string        `parquet:"tools,optional"`
	ToolChoices string         `parquet:"tool_choices"`
	ID          string         `parquet:"id"`
	TaskID      string         `parquet:"task_id"`
	Category    string         `parquet:"category"`
	Subcategory string         `parquet:"subcategory"`
	FileTypes   []string       `parquet:"file_types,list"`
	Teacher     string         `parquet:"teacher"`
	Turns       int32          `parquet:"turns"`
	Tokens      int64          `parquet:"tokens"`
	Passed      bool           `parquet:"passed"`
}

type toolsMessage struct {
	Role       string      `parquet:"role"`
	Content    string      `parquet:"content"`
	ToolCalls  []toolsCall `parquet:"tool_calls,list"`
	ToolCallID *string     `parquet:"tool_call_id,optional"`
}

// toolsCall is OpenAI's {id, type: "function", function: {name, arguments}}.
type toolsCall struct {
	ID       string        `parquet:"id"`
	Type     string        `parquet:"type"`
	Function toolsFunction `parquet:"function"`
}

type toolsFunction struct {
	Name      string `parquet:"name"`
	Arguments string `parquet:"arguments"` // JSON text
}

func toolsRowOf(r *schemas.Row) toolsRow {
	msgs := make([]toolsMessage, len(r.Messages))
	for i, m := range r.Messages {
		msgs[i] = toolsMessage{Role: m.Role, Content: m.Content}
		if m.ToolCallID != "" {
			id := m.ToolCallID
			msgs[i].ToolCallID = &id
		}
		if len(m.ToolCalls) > 0 {
			msgs[i].ToolCalls = make([]toolsCall, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				msgs[i].ToolCalls[j] = toolsCall{ID: c.ID, Type: "function", Function: toolsFunction{Name: c.Name, Arguments: c.Arguments}}
			}
		}
	}
	return toolsRow{
		Messages: msgs, Tools: r.Tools, ToolChoices: r.ToolChoices,
		ID: r.ID, TaskID: r.TaskID, Category: r.Category, Subcategory: r.Subcategory,
		FileTypes: r.FileTypes, Teacher: r.Teacher, Turns: r.Turns, Tokens: r.Tokens, Passed: r.Passed,
	}
}
