package schemas

// Message roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one chat message of a trajectory.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is an assistant's call of a tool (the openai-tools format).
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // JSON text
}

// Step statuses: how a cell ended.
const (
	StatusOK      = "ok"
	StatusError   = "error"   // the code raised
	StatusTimeout = "timeout" // killed at the time limit; interpreter state lost
	StatusCrash   = "crash"   // the interpreter died; state lost
)

// Step is one executed cell of a rollout.
type Step struct {
	Code        string `json:"code"`
	Observation string `json:"observation"`
	Status      string `json:"status"`
	ElapsedMS   int64  `json:"elapsed_ms"`
}

// Stop reasons: why a rollout ended.
const (
	StopFinished     = "finished"
	StopMaxTurns     = "max_turns"
	StopNoCode       = "no_code"
	StopTeacherError = "teacher_error"
	// StopReplyTooLong: a teacher reply was past llm.max_reply_bytes.
	StopReplyTooLong = "reply_too_long"
	StopSandboxError = "sandbox_error"
	StopBudget       = "budget"
	// StopContextLength: the conversation outgrew the model's context — the
	// model's failure, not the endpoint's.
	StopContextLength = "context_length"
	// StopRecordingEnded: a replayed recording has no further turn.
	StopRecordingEnded = "recording_ended"
	// StopTruncated: the server cut the last reply off at its token limit
	// (finish_reason "length"); its code was not run.
	StopTruncated = "truncated"
)

// Trajectory is one finished rollout of a task by a teacher.
type Trajectory struct {
	ID          string      `json:"id"`
	TaskID      string      `json:"task_id"`
	Sample      int         `json:"sample"`
	Teacher     TeacherInfo `json:"teacher"`
	Messages    []Message   `json:"messages"`
	Steps       []Step      `json:"steps"`
	FinalAnswer string      `json:"final_answer"`
	StopReason  string      `json:"stop_reason"`
	Error       string      `json:"error,omitempty"` // the infrastructure error behind teacher_error or sandbox_error
	Artifacts   []Artifact  `json:"artifacts,omitempty"`
	Usage       Usage       `json:"usage"`
	Verdict     *Verdict    `json:"verdict,omitempty"`
	// Attempt is which try of the rollout this is when an infrastructure
	// failure made it play again (absent on the first), and EarlierUsage
	// what the earlier tries cost: a row's cost counts every attempt.
	Attempt      int    `json:"attempt,omitempty"`
	EarlierUsage *Usage `json:"earlier_usage,omitempty"`
}

// TeacherInfo names the model that produced a trajectory.
type TeacherInfo struct {
	Kind     string `json:"kind"` // reference, openai, replay, empty, sloppy
	Model    string `json:"model,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
	Format   string `json:"format,omitempty"` // pybench, openai-tools
}

// Artifact is a file the rollout wrote under output/.
type Artifact struct {
	Path   string `json:"path"` // workspace-relative: output/3.csv
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// PathBytes is the exact name when it is not valid UTF-8 (Path then
	// shows each invalid byte as \xNN), so that no two names collide.
	PathBytes []byte `json:"path_bytes,omitempty"`
}

// Usage is what a rollout cost.
type Usage struct {
	PromptTokens     int64   `json:"prompt_tokens"`
	CompletionTokens int64   `json:"completion_tokens"`
	CachedTokens     int64   `json:"cached_tokens,omitempty"`
	CostUSD          float64 `json:"cost_usd"`
	SandboxCPUMS     int64   `json:"sandbox_cpu_ms"`
}

// Add accumulates u2 into u.
func (u *Usage) Add(u2 Usage) {
	u.PromptTokens += u2.PromptTokens
	u.CompletionTokens += u2.CompletionTokens
	u.CachedTokens += u2.CachedTokens
	u.CostUSD += u2.CostUSD
	u.SandboxCPUMS += u2.SandboxCPUMS
}

// Failure taxonomy: why a verified trajectory did not pass.
const (
	FailCheck         = "check_failed"
	FailNoFinalAnswer = "no_final_answer"
	FailMaxTurns      = "max_turns"
	FailFormat        = "format_error"
	FailExecTimeout   = "exec_timeout"
	FailSandboxCrash  = "sandbox_crash"
	FailTeacherError  = "teacher_error"
	FailBudget        = "budget"
	// FailArtifactLimit: the rollout wrote more under output/ than the
	// collection limits allow (files, bytes, depth, path length).
	FailReplyTooLong  = "reply_too_long"
	FailArtifactLimit = "artifact_limit"
	// FailArtifactError: output/ held something other than plain files and
	// directories (a symlink, a FIFO), or a file that changed while collected.
	FailArtifactError = "artifact_error"
	// FailCheckCrash: the checks could not finish on what the rollout left
	// (its files made the verification cell time out or die).
	FailCheckCrash = "check_crash"
	FailTruncated  = "truncated" // the teacher's reply was cut off at the token limit
)

// Verdict is the result of running a task's checks against a rollout.
type Verdict struct {
	Passed  bool          `json:"passed"`
	Checks  []CheckResult `json:"checks"`
	Failure string        `json:"failure,omitempty"` // a taxonomy word when not passed
	// Judge names the LLM judge that took part in the verdict, if any. No
	// check of synth's training verification consults a judge today, so it
	// is empty on every verdict synth writes; rows of imported or future
	// verdicts that set it are of class judged.
	Judge string `json:"judge,omitempty"`
}

// CheckResult is the outcome of one check.
type CheckResult struct {
	Kind    string `json:"kind"`
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}
