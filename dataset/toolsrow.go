package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"

	"synth/schemas"
)

// The openai-tools layout: the PyInstruct columns in the shape Hugging Face
// chat templates and TRL take them (transformers' "Tool use" guide,
// https://huggingface.co/docs/transformers/chat_extras, and TRL's "Tool
// Calling" dataset format): a call's function.arguments is an object, not
// OpenAI's JSON text; a tool message names the tool (name) besides the call
// it answers (tool_call_id); tools is a list of JSON-schema tool
// definitions. OpenAI's id and type stay, so a row also goes to an
// OpenAI-compatible fine-tuning API once arguments are serialised.
//
// The layout has one tool, execute_python, whose one argument is code:
// arguments is the struct {code}, which DuckDB reads as a STRUCT and
// datasets as a dict.
type toolsRow struct {
	Messages     []toolsMessage `parquet:"messages,list" json:"messages"`
	Tools        []ToolDef      `parquet:"tools,list" json:"tools"`
	ToolChoices  string         `parquet:"tool_choices" json:"tool_choices"`
	ID           string         `parquet:"id" json:"id"`
	TaskID       string         `parquet:"task_id" json:"task_id"`
	Category     string         `parquet:"category" json:"category"`
	Subcategory  string         `parquet:"subcategory" json:"subcategory"`
	FileTypes    []string       `parquet:"file_types,list" json:"file_types"`
	Teacher      string         `parquet:"teacher" json:"teacher"`
	Turns        int32          `parquet:"turns" json:"turns"`
	Tokens       int64          `parquet:"tokens" json:"tokens"`
	Passed       bool           `parquet:"passed" json:"passed"`
	VerdictClass string         `parquet:"verdict_class" json:"verdict_class"`
}

// toolsMessage is a message: tool_calls is empty and tool_call_id and name
// null where they do not apply.
type toolsMessage struct {
	Role       string      `parquet:"role" json:"role"`
	Content    string      `parquet:"content" json:"content"`
	ToolCalls  []toolsCall `parquet:"tool_calls,list" json:"tool_calls"`
	ToolCallID *string     `parquet:"tool_call_id,optional" json:"tool_call_id"`
	Name       *string     `parquet:"name,optional" json:"name"` // a tool message's tool
}

// toolsCall is {id, type: "function", function: {name, arguments}}.
type toolsCall struct {
	ID       string        `parquet:"id" json:"id"`
	Type     string        `parquet:"type" json:"type"`
	Function toolsFunction `parquet:"function" json:"function"`
}

type toolsFunction struct {
	Name      string   `parquet:"name" json:"name"`
	Arguments toolArgs `parquet:"arguments" json:"arguments"`
}

// toolArgs is execute_python's arguments.
type toolArgs struct {
	Code string `parquet:"code" json:"code"`
}

// ToolDef is a tool definition as OpenAI's tools field and transformers'
// get_json_schema spell it, for a tool whose one parameter is code: an
// element of the openai-tools layout's tools column.
type ToolDef struct {
	Type     string      `parquet:"type" json:"type"`
	Function ToolDefFunc `parquet:"function" json:"function"`
}

type ToolDefFunc struct {
	Name        string      `parquet:"name" json:"name"`
	Description string      `parquet:"description" json:"description"`
	Parameters  ToolDefArgs `parquet:"parameters" json:"parameters"`
}

type ToolDefArgs struct {
	Type       string       `parquet:"type" json:"type"`
	Properties ToolDefProps `parquet:"properties" json:"properties"`
	Required   []string     `parquet:"required,list" json:"required"`
}

type ToolDefProps struct {
	Code ToolDefProp `parquet:"code" json:"code"`
}

type ToolDefProp struct {
	Type        string `parquet:"type" json:"type"`
	Description string `parquet:"description" json:"description"`
}

// toolsRowOf converts r to the layout. A tool message's name is that of
// the call it answers (null when no earlier call has its id). A call's
// arguments become {code}, the code the call ran (see CallCode). r's tools
// must have passed checkTools.
func toolsRowOf(r *schemas.Row) toolsRow {
	names := map[string]string{}
	msgs := make([]toolsMessage, len(r.Messages))
	for i, m := range r.Messages {
		msgs[i] = toolsMessage{Role: m.Role, Content: m.Content, ToolCalls: []toolsCall{}}
		for _, c := range m.ToolCalls {
			names[c.ID] = c.Name
			msgs[i].ToolCalls = append(msgs[i].ToolCalls, toolsCall{ID: c.ID, Type: "function",
				Function: toolsFunction{Name: c.Name, Arguments: toolArgs{Code: CallCode(c.Arguments)}}})
		}
		if m.ToolCallID != "" {
			id := m.ToolCallID
			msgs[i].ToolCallID = &id
			if name, ok := names[id]; ok {
				msgs[i].Name = &name
			}
		}
	}
	defs, _ := ToolDefs(r.Tools)
	return toolsRow{
		Messages: msgs, Tools: defs, ToolChoices: r.ToolChoices,
		ID: r.ID, TaskID: r.TaskID, Category: r.Category, Subcategory: r.Subcategory,
		FileTypes: r.FileTypes, Teacher: r.Teacher, Turns: r.Turns, Tokens: r.Tokens, Passed: r.Passed,
		VerdictClass: r.VerdictClass,
	}
}

// rowOfTools is the inverse of toolsRowOf: arguments and tools become JSON
// text again, as schemas.Row holds them (in canonical form: {"code":...}
// for arguments, the ToolDef fields in order for tools).
func rowOfTools(t *toolsRow) schemas.Row {
	msgs := make([]schemas.RowMessage, len(t.Messages))
	for i, m := range t.Messages {
		msgs[i] = schemas.RowMessage{Role: m.Role, Content: m.Content}
		if m.ToolCallID != nil {
			msgs[i].ToolCallID = *m.ToolCallID
		}
		for _, c := range m.ToolCalls {
			args, _ := json.Marshal(map[string]string{"code": c.Function.Arguments.Code})
			msgs[i].ToolCalls = append(msgs[i].ToolCalls, schemas.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: string(args)})
		}
	}
	var tools *string
	if t.Tools != nil {
		b, _ := json.Marshal(t.Tools)
		s := string(b)
		tools = &s
	}
	return schemas.Row{
		Messages: msgs, Tools: tools, ToolChoices: t.ToolChoices,
		ID: t.ID, TaskID: t.TaskID, Category: t.Category, Subcategory: t.Subcategory,
		FileTypes: t.FileTypes, Teacher: t.Teacher, Turns: t.Turns, Tokens: t.Tokens, Passed: t.Passed,
		VerdictClass: t.VerdictClass,
	}
}

// CallCode is the code a call's arguments text runs: the code field of the
// layout's arguments, by agent.Tools.Parse's
// rule: a JSON object's code field, else the text itself.
func CallCode(args string) string {
	var a struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal([]byte(args), &a); err == nil {
		return a.Code
	}
	return args
}

// ToolDefs parses the JSON text of tool definitions (the tools of a
// schemas.Row), refusing any field
// the layout has no column for (a nil text is no tools).
func ToolDefs(tools *string) ([]ToolDef, error) {
	if tools == nil {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(*tools)))
	dec.DisallowUnknownFields()
	var defs []ToolDef
	if err := dec.Decode(&defs); err != nil {
		return nil, err
	}
	return defs, nil
}

// checkTools refuses a row whose tool definitions the openai-tools layout
// cannot hold without loss.
func checkTools(r *schemas.Row) error {
	if _, err := ToolDefs(r.Tools); err != nil {
		return fmt.Errorf("dataset: row %s: its tools are not function tools whose one parameter is code, which is all the %s layout holds: %w", r.ID, FormatOpenAITools, err)
	}
	return nil
}
