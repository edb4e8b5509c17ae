package inspectlog

// The JSON shape of an inspect_ai eval log, the fields synth fills.

// Log is inspect_ai's EvalLog.
type Log struct {
	Version int      `json:"version"`
	Status  string   `json:"status"` // success, or cancelled for an eval that never finished
	Eval    Spec     `json:"eval"`
	Plan    Plan     `json:"plan"`
	Results Results  `json:"results"`
	Stats   Stats    `json:"stats"`
	Samples []Sample `json:"samples"`
}

// Spec is EvalSpec: what was evaluated, on what, with which model.
type Spec struct {
	EvalID      string            `json:"eval_id"`
	RunID       string            `json:"run_id"`
	Created     string            `json:"created"` // RFC 3339, UTC
	Task        string            `json:"task"`
	TaskID      string            `json:"task_id"`
	TaskVersion int               `json:"task_version"`
	Dataset     Dataset           `json:"dataset"`
	Model       string            `json:"model"`
	Config      Config            `json:"config"`
	Packages    map[string]string `json:"packages"`
	Metadata    map[string]any    `json:"metadata"`
}

// Dataset is EvalDataset.
type Dataset struct {
	Name      string   `json:"name"`
	Location  string   `json:"location"`
	Samples   int      `json:"samples"`
	SampleIDs []string `json:"sample_ids"`
}

// Config is EvalConfig: the epochs are the rollouts per task.
type Config struct {
	Epochs int `json:"epochs"`
}

// Plan is EvalPlan: the solver is synth's agent loop with its teacher.
type Plan struct {
	Name  string     `json:"name"`
	Steps []PlanStep `json:"steps"`
}

// PlanStep is EvalPlanStep.
type PlanStep struct {
	Solver string         `json:"solver"`
	Params map[string]any `json:"params"`
}

// Results is EvalResults.
type Results struct {
	TotalSamples     int         `json:"total_samples"`
	CompletedSamples int         `json:"completed_samples"`
	Scores           []EvalScore `json:"scores"`
}

// EvalScore is EvalScore: a scorer's metrics over the samples.
type EvalScore struct {
	Name            string            `json:"name"`
	Scorer          string            `json:"scorer"`
	ScoredSamples   int               `json:"scored_samples"`
	UnscoredSamples int               `json:"unscored_samples"`
	Metrics         map[string]Metric `json:"metrics"`
}

// Metric is EvalMetric.
type Metric struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Stats is EvalStats.
type Stats struct {
	StartedAt   string           `json:"started_at"`
	CompletedAt string           `json:"completed_at"`
	ModelUsage  map[string]Usage `json:"model_usage"`
}

// Usage is ModelUsage.
type Usage struct {
	InputTokens    int64    `json:"input_tokens"`
	OutputTokens   int64    `json:"output_tokens"`
	TotalTokens    int64    `json:"total_tokens"`
	InputCacheRead *int64   `json:"input_tokens_cache_read,omitempty"`
	TotalCost      *float64 `json:"total_cost,omitempty"`
}

// Sample is EvalSample: one rollout.
type Sample struct {
	ID         string           `json:"id"`
	Epoch      int              `json:"epoch"`
	Input      []Message        `json:"input"` // the messages before the first assistant turn
	Target     string           `json:"target"`
	Messages   []Message        `json:"messages"`
	Output     Output           `json:"output"`
	Scores     map[string]Score `json:"scores,omitempty"`
	Metadata   map[string]any   `json:"metadata"`
	ModelUsage map[string]Usage `json:"model_usage"`
	Error      *Error           `json:"error,omitempty"`
}

// Message is one of ChatMessageSystem, ChatMessageUser,
// ChatMessageAssistant and ChatMessageTool, told apart by Role.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`   // assistant
	ToolCallID string     `json:"tool_call_id,omitempty"` // tool
	Function   string     `json:"function,omitempty"`     // tool: the called function's name
}

// ToolCall is inspect_ai's ToolCall: arguments as an object. Arguments that
// are not a JSON object are kept as text in ParseError, with none.
type ToolCall struct {
	ID         string         `json:"id"`
	Function   string         `json:"function"`
	Arguments  map[string]any `json:"arguments"`
	Type       string         `json:"type"`
	ParseError string         `json:"parse_error,omitempty"`
}

// Output is ModelOutput: the rollout's final answer.
type Output struct {
	Model      string `json:"model"`
	Completion string `json:"completion"`
}

// Score is inspect_ai's Score: value C (passed) or I (failed), the final
// answer, and the checks' messages as the explanation.
type Score struct {
	Value       string         `json:"value"`
	Answer      string         `json:"answer"`
	Explanation string         `json:"explanation"`
	Metadata    map[string]any `json:"metadata"`
}

// Error is EvalError: a rollout lost to the infrastructure, which has no
// score.
type Error struct {
	Message       string `json:"message"`
	Traceback     string `json:"traceback"`
	TracebackANSI string `json:"traceback_ansi"`
}

// The score values inspect_ai's accuracy metric reads as 1 and 0.
const (
	Correct   = "C"
	Incorrect = "I"
)

// ScorerName names synth's verdict among a sample's scores.
const ScorerName = "unit_tests"
