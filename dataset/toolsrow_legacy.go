package dataset

import (
	"github.com/parquet-go/parquet-go"

	"synth/schemas"
)

// The openai-tools layout of shards written before arguments became a
// struct: arguments and tools as JSON text, tool messages without a name.
// ReadRows still reads it, so stats, view and export work on older runs.
type legacyToolsRow struct {
	Messages    []legacyToolsMessage `parquet:"messages,list"`
	Tools       *string              `parquet:"tools,optional"`
	ToolChoices string               `parquet:"tool_choices"`
	ID          string               `parquet:"id"`
	TaskID      string               `parquet:"task_id"`
	Category    string               `parquet:"category"`
	Subcategory string               `parquet:"subcategory"`
	FileTypes   []string             `parquet:"file_types,list"`
	Teacher     string               `parquet:"teacher"`
	Turns       int32                `parquet:"turns"`
	Tokens      int64                `parquet:"tokens"`
	Passed      bool                 `parquet:"passed"`
}

type legacyToolsMessage struct {
	Role      string `parquet:"role"`
	Content   string `parquet:"content"`
	ToolCalls []struct {
		ID       string `parquet:"id"`
		Type     string `parquet:"type"`
		Function struct {
			Name      string `parquet:"name"`
			Arguments string `parquet:"arguments"`
		} `parquet:"function"`
	} `parquet:"tool_calls,list"`
	ToolCallID *string `parquet:"tool_call_id,optional"`
}

// legacyTools reports whether an openai-tools shard's schema is the
// legacy layout: its tools column is text.
func legacyTools(s *parquet.Schema) bool {
	_, ok := s.Lookup("tools") // a leaf only when text
	return ok
}

func rowOfLegacyTools(t *legacyToolsRow) schemas.Row {
	msgs := make([]schemas.RowMessage, len(t.Messages))
	for i, m := range t.Messages {
		msgs[i] = schemas.RowMessage{Role: m.Role, Content: m.Content}
		if m.ToolCallID != nil {
			msgs[i].ToolCallID = *m.ToolCallID
		}
		for _, c := range m.ToolCalls {
			msgs[i].ToolCalls = append(msgs[i].ToolCalls, schemas.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
	}
	return schemas.Row{
		Messages: msgs, Tools: t.Tools, ToolChoices: t.ToolChoices,
		ID: t.ID, TaskID: t.TaskID, Category: t.Category, Subcategory: t.Subcategory,
		FileTypes: t.FileTypes, Teacher: t.Teacher, Turns: t.Turns, Tokens: t.Tokens, Passed: t.Passed,
	}
}
