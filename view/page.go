package view

import (
	"fmt"
	"unicode/utf8"

	"synth/bench"
	"synth/schemas"
)

// Page is the data of one trajectory page: a task and one side per input
// (one for a run, a dataset or an eval; two when evals are compared). It is
// written as JSON into the page's data file.
type Page struct {
	N     int     `json:"n"`
	Kind  string  `json:"kind"` // run, dataset, eval
	Task  TaskV   `json:"task"`
	Sides []*Side `json:"sides"`
}

// TaskV is the task as the page shows it.
type TaskV struct {
	ID          string   `json:"id,omitempty"`
	Index       string   `json:"index,omitempty"`
	Category    string   `json:"category,omitempty"`
	Subcategory string   `json:"subcategory,omitempty"`
	Generator   string   `json:"generator,omitempty"`
	Lang        string   `json:"lang,omitempty"`
	Query       string   `json:"query"`
	Files       []*Media `json:"files,omitempty"`
	Checks      []string `json:"checks,omitempty"` // the kinds of the task's checks
	FileTypes   []string `json:"file_types,omitempty"`
}

// Side is one trajectory of the task, with what its source says of it.
type Side struct {
	Label       string            `json:"label"` // the input it came from
	ID          string            `json:"id,omitempty"`
	Sample      int               `json:"sample"`
	Teacher     string            `json:"teacher,omitempty"`
	Format      string            `json:"format,omitempty"`
	StopReason  string            `json:"stop_reason,omitempty"`
	Error       string            `json:"error,omitempty"`
	Messages    []schemas.Message `json:"messages"`
	Steps       []StepV           `json:"steps,omitempty"`
	FinalAnswer string            `json:"final_answer,omitempty"`
	Artifacts   []*Media          `json:"artifacts,omitempty"`
	Usage       *schemas.Usage    `json:"usage,omitempty"`
	Verdict     *schemas.Verdict  `json:"verdict,omitempty"`
	Passed      *bool             `json:"passed,omitempty"` // a dataset row's passed column
	Turns       int               `json:"turns"`
	Infra       bool              `json:"infra,omitempty"`
	Attempts    int               `json:"attempts,omitempty"`
	Judge       *bench.Judgement  `json:"judge,omitempty"`
	Missing     string            `json:"missing,omitempty"` // why this side has no trajectory
	Dropped     string            `json:"dropped,omitempty"` // the filter stage and reason that left it out of the dataset
}

// StepV is an executed cell's outcome; its code and observation are in the
// messages, as the model saw them.
type StepV struct {
	Status    string `json:"status"`
	ElapsedMS int64  `json:"elapsed_ms"`
}

// Verdict words of the index's verdict filter.
const (
	VerdictPassed     = "passed"
	VerdictFailed     = "failed"
	VerdictInfra      = "infra"
	VerdictUnverified = "unverified"
	VerdictMissing    = "missing"
)

// verdictWord is how the index names a side's verdict.
func (s *Side) verdictWord() string {
	switch {
	case s.Missing != "":
		return VerdictMissing
	case s.Infra:
		return VerdictInfra
	case s.Verdict != nil && s.Verdict.Passed, s.Verdict == nil && s.Passed != nil && *s.Passed:
		return VerdictPassed
	case s.Verdict != nil, s.Passed != nil:
		return VerdictFailed
	}
	return VerdictUnverified
}

func (s *Side) failure() string {
	if s.Verdict != nil && !s.Verdict.Passed {
		return s.Verdict.Failure
	}
	return ""
}

// sideOf fills a side from a trajectory.
func sideOf(label string, tr *schemas.Trajectory) *Side {
	s := &Side{
		Label:       label,
		ID:          tr.ID,
		Sample:      tr.Sample,
		Teacher:     teacherName(tr.Teacher),
		Format:      tr.Teacher.Format,
		StopReason:  tr.StopReason,
		Error:       tr.Error,
		Messages:    tr.Messages,
		FinalAnswer: tr.FinalAnswer,
		Verdict:     tr.Verdict,
	}
	if s.Messages == nil {
		s.Messages = []schemas.Message{}
	}
	for i := range s.Messages { // tr's own messages: the caller decoded tr for this page
		s.Messages[i].Content = cut(s.Messages[i].Content, maxMessage)
	}
	s.FinalAnswer = cut(s.FinalAnswer, maxMessage)
	u := tr.Usage
	s.Usage = &u
	for _, st := range tr.Steps {
		s.Steps = append(s.Steps, StepV{Status: st.Status, ElapsedMS: st.ElapsedMS})
	}
	s.Turns = assistantTurns(tr.Messages)
	return s
}

func assistantTurns(msgs []schemas.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == schemas.RoleAssistant {
			n++
		}
	}
	return n
}

func teacherName(t schemas.TeacherInfo) string {
	if t.Model == "" {
		return t.Kind
	}
	return t.Kind + ":" + t.Model
}

// taskV is the page's view of a task (files are added by the caller).
func taskV(t *schemas.Task) TaskV {
	v := TaskV{ID: t.ID, Index: t.Index, Category: t.Category, Subcategory: t.Subcategory,
		Generator: t.Generator, Lang: t.Lang, Query: t.Query}
	for _, c := range t.Checks {
		v.Checks = append(v.Checks, c.Kind)
	}
	seen := map[string]bool{}
	for _, f := range t.Files {
		ty := f.Type
		if ty == "" {
			ty = extType(f.Name)
		}
		if ty != "" && !seen[ty] {
			seen[ty] = true
			v.FileTypes = append(v.FileTypes, ty)
		}
	}
	return v
}

// queryOf finds the query in messages that come without their task: the
// first user message that is not the [INFO] line naming the files.
func queryOf(msgs []schemas.Message) string {
	for _, m := range msgs {
		if m.Role == schemas.RoleUser && !hasPrefixFold(m.Content, "[INFO]") {
			return m.Content
		}
	}
	return ""
}

// maxMessage bounds the text of one message a page holds.
const maxMessage = 1 << 20

// cut shortens s to about n bytes, at a rune, saying how much was left out.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("\n… %d more bytes (the whole text is in the input's JSONL)", len(s)-i)
}
