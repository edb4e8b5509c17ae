package dataset

import (
	"slices"
	"testing"

	"synth/schemas"
)

func TestRowOf(t *testing.T) {
	task := &schemas.Task{
		ID: "t1", Category: schemas.CategoryData, Subcategory: "dedup",
		Files: []schemas.TaskFile{{Name: "a.csv", Type: "csv"}, {Name: "b.CSV"}, {Name: "c.xlsx", Type: "xlsx"}, {Name: "README"}},
	}
	tr := &schemas.Trajectory{
		ID: "r1", TaskID: "t1",
		Teacher: schemas.TeacherInfo{Kind: "openai", Model: "gpt-4o"},
		Messages: []schemas.Message{
			{Role: "system", Content: "sys"}, {Role: "user", Content: "q"},
			{Role: "assistant", Content: "a1"}, {Role: "user", Content: "o1"},
			{Role: "assistant", Content: "Finished: x"},
		},
		Usage:   schemas.Usage{PromptTokens: 1000, CompletionTokens: 200},
		Verdict: &schemas.Verdict{Passed: true},
	}
	r := RowOf(task, tr, nil)
	if r.ID != "r1" || r.TaskID != "t1" || r.Category != schemas.CategoryData || r.Subcategory != "dedup" {
		t.Errorf("ids: %+v", r)
	}
	if !slices.Equal(r.FileTypes, []string{"csv", "xlsx", "unknown"}) {
		t.Errorf("file_types %v", r.FileTypes)
	}
	if r.Teacher != "openai:gpt-4o" || r.Turns != 2 || r.Tokens != 1200 || !r.Passed || r.ToolChoices != "auto" || r.Tools != nil {
		t.Errorf("row %+v", r)
	}
	if len(r.Messages) != 5 || r.Messages[4].Content != "Finished: x" {
		t.Errorf("messages %+v", r.Messages)
	}

	tr.Usage = schemas.Usage{}
	tr.Verdict = nil
	tr.Teacher = schemas.TeacherInfo{Kind: "reference"}
	r = RowOf(nil, tr, nil)
	if r.Tokens <= 0 || r.Tokens > 20 {
		t.Errorf("offline tokens %d, want a small positive count", r.Tokens)
	}
	if r.Passed || r.Teacher != "reference" || r.Category != "" || r.FileTypes == nil {
		t.Errorf("row without task or verdict %+v", r)
	}
}

func TestRowOfKeepsToolCalls(t *testing.T) {
	tr := &schemas.Trajectory{ID: "r", Messages: []schemas.Message{
		{Role: "user", Content: "q"},
		{Role: "assistant", ToolCalls: []schemas.ToolCall{{ID: "c1", Name: "execute_python", Arguments: `{"code":"1"}`}}},
		{Role: "tool", Content: "1", ToolCallID: "c1"},
		{Role: "assistant", Content: "Finished: 1"},
	}}
	tools := `[{"type":"function"}]`
	r := RowOf(nil, tr, &tools)
	if r.Messages[1].ToolCalls[0].Arguments != `{"code":"1"}` || r.Messages[2].ToolCallID != "c1" || r.Turns != 2 || *r.Tools != tools {
		t.Errorf("row %+v", r)
	}
}
