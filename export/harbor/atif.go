package harbor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"synth/bench"
	"synth/eval"
	"synth/schemas"
)

// SchemaVersion is the ATIF version the trajectories declare: the fields
// they use are all in ATIF-v1.6.
const SchemaVersion = "ATIF-v1.6"

// PythonTool is the tool a code cell is a call of.
const PythonTool = "execute_python"

// Trajectory is an ATIF trajectory (harbor.models.trajectories.Trajectory).
type Trajectory struct {
	SchemaVersion string         `json:"schema_version"`
	SessionID     string         `json:"session_id"`
	Agent         Agent          `json:"agent"`
	Steps         []Step         `json:"steps"`
	Notes         string         `json:"notes,omitempty"`
	FinalMetrics  *FinalMetrics  `json:"final_metrics,omitempty"`
	Extra         map[string]any `json:"extra,omitempty"`
}

// Agent is the system that made the trajectory.
type Agent struct {
	Name            string           `json:"name"`
	Version         string           `json:"version"`
	ModelName       string           `json:"model_name,omitempty"`
	ToolDefinitions []map[string]any `json:"tool_definitions,omitempty"`
	Extra           map[string]any   `json:"extra,omitempty"`
}

// Step is one message: the system prompt, a user turn, or an agent turn
// with the code cells it ran and their output.
type Step struct {
	StepID      int            `json:"step_id"`
	Source      string         `json:"source"` // system, user, agent
	Message     string         `json:"message"`
	ToolCalls   []ToolCall     `json:"tool_calls,omitempty"`
	Observation *Observation   `json:"observation,omitempty"`
	Extra       map[string]any `json:"extra,omitempty"`
}

// ToolCall is a code cell the agent ran.
type ToolCall struct {
	ToolCallID   string         `json:"tool_call_id"`
	FunctionName string         `json:"function_name"`
	Arguments    map[string]any `json:"arguments"`
}

// Observation holds what the agent's calls returned.
type Observation struct {
	Results []ObservationResult `json:"results"`
}

// ObservationResult is one call's output.
type ObservationResult struct {
	SourceCallID string `json:"source_call_id,omitempty"`
	Content      string `json:"content"`
}

// FinalMetrics is the rollout's usage.
type FinalMetrics struct {
	TotalPromptTokens     int64   `json:"total_prompt_tokens"`
	TotalCompletionTokens int64   `json:"total_completion_tokens"`
	TotalCachedTokens     int64   `json:"total_cached_tokens"`
	TotalCostUSD          float64 `json:"total_cost_usd"`
	TotalSteps            int     `json:"total_steps"`
}

// Trajectories turns every rollout of an eval's results into an ATIF
// trajectory, in results order, each with its file name (see FileName).
func Trajectories(ef *eval.Folder) ([]Trajectory, []string) {
	var out []Trajectory
	var names []string
	seen := map[string]bool{}
	for i, r := range ef.Results {
		out = append(out, FromResult(ef, r))
		name := FileName(r.Index, r.Sample, i)
		for n := 2; seen[name]; n++ {
			name = strings.TrimSuffix(FileName(r.Index, r.Sample, i), ".json") + fmt.Sprintf("-%d.json", n)
		}
		seen[name] = true
		names = append(names, name)
	}
	return out, names
}

// FileName is a rollout's trajectory file: task-<index>-sample-<n>.json,
// the index made safe as FolderName makes it.
func FileName(index string, sample, i int) string {
	return fmt.Sprintf("%s-sample-%d.json", FolderName(index, i), sample+1)
}

// FromResult is one rollout as an ATIF trajectory: the system prompt and
// user turns as system and user steps; each assistant turn an agent step
// whose code cells are tool calls of PythonTool with {"code": ...} and
// whose observation is the cells' output, as the model saw it. In the
// openai-tools format the calls and tool messages are the trajectory's own;
// in the pybench format an assistant turn that ran the next recorded cell
// (its text holds the cell's code) takes the following user turn as that
// cell's observation. The verdict, the final answer and the stop reason
// are in extra.
func FromResult(ef *eval.Folder, r bench.Result) Trajectory {
	t := r.Traj
	if t == nil {
		t = &schemas.Trajectory{}
	}
	model := t.Teacher.Model
	if model == "" {
		model = ef.Summary.Model
	}
	tr := Trajectory{
		SchemaVersion: SchemaVersion,
		SessionID:     t.ID,
		Agent: Agent{
			Name: "synth/" + teacherKind(t, ef), Version: ef.Version, ModelName: model,
			ToolDefinitions: []map[string]any{pythonToolDef},
			Extra:           map[string]any{"format": t.Teacher.Format},
		},
		Steps: steps(t),
		FinalMetrics: &FinalMetrics{
			TotalPromptTokens: t.Usage.PromptTokens, TotalCompletionTokens: t.Usage.CompletionTokens,
			TotalCachedTokens: t.Usage.CachedTokens, TotalCostUSD: t.Usage.CostUSD,
		},
		Extra: map[string]any{
			"task_id": r.TaskID, "index": r.Index, "sample": r.Sample, "category": r.Category,
			"subcategory": r.Subcategory, "passed": r.Passed, "failure": r.Failure, "infra": r.Infra,
			"stop_reason": t.StopReason, "final_answer": t.FinalAnswer, "turns": r.Turns,
			"scoring": ef.Summary.Scoring, "bench_hash": ef.Summary.BenchHash,
		},
	}
	if t.Verdict != nil {
		tr.Extra["checks"] = t.Verdict.Checks
	}
	if len(tr.Steps) == 0 { // ATIF needs a step: a rollout lost before its first message
		tr.Steps = []Step{{StepID: 1, Source: "system", Message: ""}}
		tr.Notes = "the rollout recorded no message: " + strings.TrimSpace(r.Failure+" "+t.Error)
	}
	tr.FinalMetrics.TotalSteps = len(tr.Steps)
	return tr
}

var pythonToolDef = map[string]any{
	"type": "function",
	"function": map[string]any{
		"name":        PythonTool,
		"description": "Run Python code in a stateful interpreter whose working directory holds data/ and output/.",
		"parameters": map[string]any{
			"type":       "object",
			"properties": map[string]any{"code": map[string]any{"type": "string"}},
			"required":   []string{"code"},
		},
	},
}

func teacherKind(t *schemas.Trajectory, ef *eval.Folder) string {
	if t.Teacher.Kind != "" {
		return t.Teacher.Kind
	}
	if ef.Summary.Teacher != "" {
		return ef.Summary.Teacher
	}
	return "unknown"
}

// steps maps the messages to ATIF steps.
func steps(t *schemas.Trajectory) []Step {
	var out []Step
	cell := 0 // the next recorded cell (t.Steps) not yet matched
	add := func(s Step) *Step {
		s.StepID = len(out) + 1
		out = append(out, s)
		return &out[len(out)-1]
	}
	ms := t.Messages
	for i := 0; i < len(ms); i++ {
		m := ms[i]
		switch m.Role {
		case schemas.RoleSystem:
			add(Step{Source: "system", Message: m.Content})
		case schemas.RoleAssistant:
			s := add(Step{Source: "agent", Message: m.Content})
			if len(m.ToolCalls) > 0 {
				results := []ObservationResult{}
				for _, c := range m.ToolCalls {
					s.ToolCalls = append(s.ToolCalls, ToolCall{ToolCallID: c.ID, FunctionName: c.Name, Arguments: arguments(c.Arguments)})
					cell++
				}
				for i+1 < len(ms) && ms[i+1].Role == schemas.RoleTool {
					i++
					results = append(results, ObservationResult{SourceCallID: known(ms[i].ToolCallID, s.ToolCalls), Content: ms[i].Content})
				}
				if len(results) > 0 {
					s.Observation = &Observation{Results: results}
				}
				continue
			}
			if cell < len(t.Steps) && i+1 < len(ms) && ms[i+1].Role == schemas.RoleUser && ranCell(m.Content, t.Steps[cell].Code) {
				c := t.Steps[cell]
				cell++
				id := fmt.Sprintf("cell-%d", cell)
				s.ToolCalls = []ToolCall{{ToolCallID: id, FunctionName: PythonTool, Arguments: map[string]any{"code": c.Code}}}
				i++
				s.Observation = &Observation{Results: []ObservationResult{{SourceCallID: id, Content: ms[i].Content}}}
				s.Extra = map[string]any{"cell_status": c.Status, "cell_elapsed_ms": c.ElapsedMS}
			}
		case schemas.RoleTool: // a tool message without its call
			add(Step{Source: "user", Message: m.Content, Extra: map[string]any{"role": m.Role, "tool_call_id": m.ToolCallID}})
		default:
			add(Step{Source: "user", Message: m.Content})
		}
	}
	return out
}

// ranCell says whether an assistant's text holds the cell's code.
func ranCell(text, code string) bool {
	code = strings.TrimSpace(code)
	return code != "" && strings.Contains(text, code)
}

// known is id when one of the calls has it, else "" (ATIF requires a
// result's source_call_id to name a call of its step).
func known(id string, calls []ToolCall) string {
	for _, c := range calls {
		if c.ToolCallID == id {
			return id
		}
	}
	return ""
}

// arguments is a call's JSON arguments as an object; arguments that are
// not a JSON object are the code the call ran, as the rollout ran them.
func arguments(js string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err == nil && m != nil {
		return m
	}
	return map[string]any{"code": js}
}

// WriteTrajectories writes the trajectories, one JSON file each under the
// names given, into dir (made if missing; files of the same names are
// replaced), each through a .tmp file renamed when complete.
func WriteTrajectories(dir string, trs []Trajectory, names []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("atif: %w", err)
	}
	for i, tr := range trs {
		b, err := json.MarshalIndent(tr, "", "  ")
		if err != nil {
			return fmt.Errorf("atif: %s: %w", names[i], err)
		}
		path := filepath.Join(dir, names[i])
		if err := os.WriteFile(path+".tmp", append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("atif: %w", err)
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			os.Remove(path + ".tmp")
			return fmt.Errorf("atif: %w", err)
		}
	}
	return nil
}
