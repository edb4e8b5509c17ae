package dataset

import (
	"path"
	"strings"

	"synth/schemas"
	"synth/tokens"
)

// ToolChoiceAuto is the tool_choices value of every row, as PyInstruct's.
const ToolChoiceAuto = "auto"

// RowOf returns the dataset row of trajectory tr of task. tools is the JSON
// text of the tool definitions the teacher saw (nil for the pybench format).
//
// The row's file_types are the types of the task's files, each once, in file
// order (a file without a type is typed by its extension); teacher is
// "kind:model" ("kind" without a model); turns counts the assistant
// messages; tokens is the teacher's reported usage (prompt plus completion)
// or, when that is zero, an offline count of the messages (see package
// tokens); passed comes from the verdict (false without one). task may be nil
// (category, subcategory and file_types are then empty).
func RowOf(task *schemas.Task, tr *schemas.Trajectory, tools *string) schemas.Row {
	r := schemas.Row{
		Messages:     make([]schemas.RowMessage, len(tr.Messages)),
		Tools:        tools,
		ToolChoices:  ToolChoiceAuto,
		ID:           tr.ID,
		TaskID:       tr.TaskID,
		Teacher:      teacherName(tr.Teacher),
		FileTypes:    []string{},
		Passed:       tr.Verdict != nil && tr.Verdict.Passed,
		VerdictClass: schemas.VerdictClassOf(tr),
	}
	for i, m := range tr.Messages {
		r.Messages[i] = schemas.RowMessage{Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID}
		if m.Role == schemas.RoleAssistant {
			r.Turns++
		}
	}
	if task != nil {
		if r.TaskID == "" {
			r.TaskID = task.ID
		}
		r.Category = task.Category
		r.Subcategory = task.Subcategory
		r.FileTypes = fileTypes(task.Files)
	}
	r.Tokens = tr.Usage.PromptTokens + tr.Usage.CompletionTokens
	if r.Tokens == 0 {
		r.Tokens = tokens.Messages(tr.Messages)
	}
	return r
}

func teacherName(t schemas.TeacherInfo) string {
	if t.Model == "" {
		return t.Kind
	}
	return t.Kind + ":" + t.Model
}

func fileTypes(files []schemas.TaskFile) []string {
	types := make([]string, 0, len(files))
	seen := map[string]bool{}
	for _, f := range files {
		t := f.Type
		if t == "" {
			t = strings.ToLower(strings.TrimPrefix(path.Ext(f.Name), "."))
		}
		if t == "" {
			t = "unknown"
		}
		if !seen[t] {
			seen[t] = true
			types = append(types, t)
		}
	}
	return types
}
