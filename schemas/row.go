package schemas

// Row is one dataset row as written to Parquet. The first three columns are
// PyInstruct's (messages, tools, tool_choices); the rest describe the row.
// Lists use the 3-level LIST encoding so every Parquet reader agrees.
type Row struct {
	Messages    []RowMessage `parquet:"messages,list" json:"messages"`
	Tools       *string      `parquet:"tools,optional" json:"tools"`
	ToolChoices string       `parquet:"tool_choices" json:"tool_choices"`
	ID          string       `parquet:"id" json:"id"`
	TaskID      string       `parquet:"task_id" json:"task_id"`
	Category    string       `parquet:"category" json:"category"`
	Subcategory string       `parquet:"subcategory" json:"subcategory"`
	FileTypes   []string     `parquet:"file_types,list" json:"file_types"`
	Teacher     string       `parquet:"teacher" json:"teacher"`
	Turns       int32        `parquet:"turns" json:"turns"`
	Tokens      int64        `parquet:"tokens" json:"tokens"`
	Passed      bool         `parquet:"passed" json:"passed"`
	// VerdictClass is how the row's verdict was reached: one of the
	// Verdict… classes.
	VerdictClass string `parquet:"verdict_class" json:"verdict_class"`
}

// Verdict classes of a row (Row.VerdictClass).
const (
	VerdictVerified = "verified" // passed on its first verification
	VerdictRetried  = "retried"  // passed after an infrastructure failure was retried
	VerdictJudged   = "judged"   // an LLM judge took part in the verdict
)

// VerdictClasses lists the verdict classes.
var VerdictClasses = []string{VerdictVerified, VerdictRetried, VerdictJudged}

// VerdictClassOf is tr's verdict class: judged when its verdict names a
// judge, retried when the record is not its rollout's first attempt,
// verified otherwise.
func VerdictClassOf(tr *Trajectory) string {
	switch {
	case tr.Verdict != nil && tr.Verdict.Judge != "":
		return VerdictJudged
	case tr.Attempt > 1:
		return VerdictRetried
	}
	return VerdictVerified
}

// RowMessage is a message as a dataset row stores it. ToolCalls and
// ToolCallID are set only in the openai-tools format; the pybench format's
// Parquet messages are {role, content} exactly, as PyInstruct's (the
// dataset package writes the tool fields in its openai-tools layout).
type RowMessage struct {
	Role       string     `parquet:"role" json:"role"`
	Content    string     `parquet:"content" json:"content"`
	ToolCalls  []ToolCall `parquet:"-" json:"tool_calls,omitempty"`
	ToolCallID string     `parquet:"-" json:"tool_call_id,omitempty"`
}
