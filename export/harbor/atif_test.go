package harbor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"synth/bench"
	"synth/eval"
	"synth/schemas"
)

func evalFolder(trs ...*schemas.Trajectory) *eval.Folder {
	ef := &eval.Folder{Version: "v1", Summary: bench.Summary{Model: "m", Teacher: "openai", Scoring: "strict", BenchHash: "h"}}
	for i, t := range trs {
		ef.Results = append(ef.Results, bench.Result{Index: "2", TaskID: "t2", Sample: i, Passed: i == 0, Traj: t})
	}
	return ef
}

type stepShape struct {
	Source string
	Calls  []string // each call's code
	Output []string // each result's content
	IDs    []string // each result's source_call_id
}

func shape(tr Trajectory) []stepShape {
	var out []stepShape
	for i, s := range tr.Steps {
		if s.StepID != i+1 {
			panic("step ids are not sequential")
		}
		sh := stepShape{Source: s.Source}
		for _, c := range s.ToolCalls {
			sh.Calls = append(sh.Calls, c.Arguments["code"].(string))
		}
		if s.Observation != nil {
			for _, r := range s.Observation.Results {
				sh.Output = append(sh.Output, r.Content)
				sh.IDs = append(sh.IDs, r.SourceCallID)
			}
		}
		out = append(out, sh)
	}
	return out
}

// TestTrajectoryPyBench: an assistant turn whose text holds the next
// recorded cell's code ran it, and the next user turn is its output; a turn
// without code (answered by a nudge) takes no cell.
func TestTrajectoryPyBench(t *testing.T) {
	tr := &schemas.Trajectory{
		ID: "r1", Teacher: schemas.TeacherInfo{Kind: "openai", Model: "gpt", Format: "pybench"},
		Messages: []schemas.Message{
			{Role: "system", Content: "sys"}, {Role: "user", Content: "[INFO]The data is uploaded to ./data/x.csv"}, {Role: "user", Content: "sum it"},
			{Role: "assistant", Content: "Analyse: think\nno code here"}, {Role: "user", Content: "please write code"},
			{Role: "assistant", Content: "Action:\n```python\nprint(6)\n```"}, {Role: "user", Content: "[INFO]This is a Code Interpreter Message:\n6\n"},
			{Role: "assistant", Content: "Finished: 6"},
		},
		Steps:       []schemas.Step{{Code: "print(6)\n", Observation: "6\n", Status: "ok"}},
		FinalAnswer: "6", Usage: schemas.Usage{PromptTokens: 3, CompletionTokens: 2, CostUSD: 0.25},
		Verdict: &schemas.Verdict{Passed: true, Checks: []schemas.CheckResult{{Kind: "answer", OK: true, Message: "got 6"}}},
	}
	ef := evalFolder(tr)
	got := FromResult(ef, ef.Results[0])
	want := []stepShape{{Source: "system"}, {Source: "user"}, {Source: "user"}, {Source: "agent"}, {Source: "user"},
		{Source: "agent", Calls: []string{"print(6)\n"}, Output: []string{"[INFO]This is a Code Interpreter Message:\n6\n"}, IDs: []string{"cell-1"}},
		{Source: "agent"}}
	if d := cmp.Diff(want, shape(got)); d != "" {
		t.Errorf("steps (-want +got):\n%s", d)
	}
	if got.Agent.ModelName != "gpt" || got.Agent.Name != "synth/openai" || got.SchemaVersion != SchemaVersion {
		t.Errorf("agent %+v, schema %s", got.Agent, got.SchemaVersion)
	}
	if m := got.FinalMetrics; m.TotalPromptTokens != 3 || m.TotalCompletionTokens != 2 || m.TotalCostUSD != 0.25 || m.TotalSteps != 7 {
		t.Errorf("final metrics %+v", m)
	}
	if got.Extra["passed"] != true || got.Extra["final_answer"] != "6" {
		t.Errorf("extra %v", got.Extra)
	}
}

// TestTrajectoryTools: the openai-tools format's calls and tool messages
// are the steps' own; arguments that are not a JSON object are the code;
// a tool message naming no call of its step keeps no source_call_id.
func TestTrajectoryTools(t *testing.T) {
	tr := &schemas.Trajectory{
		ID: "r2", Teacher: schemas.TeacherInfo{Kind: "openai", Format: "openai-tools"},
		Messages: []schemas.Message{
			{Role: "system", Content: "sys"}, {Role: "user", Content: "sum it"},
			{Role: "assistant", ToolCalls: []schemas.ToolCall{{ID: "a", Name: PythonTool, Arguments: `{"code":"x=1"}`}, {ID: "b", Name: PythonTool, Arguments: "print(x)"}}},
			{Role: "tool", ToolCallID: "a", Content: ""}, {Role: "tool", ToolCallID: "zzz", Content: "1\n"},
			{Role: "tool", ToolCallID: "late", Content: "orphan"},
		},
	}
	ef := evalFolder(tr)
	got := FromResult(ef, ef.Results[0])
	want := []stepShape{{Source: "system"}, {Source: "user"},
		{Source: "agent", Calls: []string{"x=1", "print(x)"}, Output: []string{"", "1\n", "orphan"}, IDs: []string{"a", "", ""}}}
	if d := cmp.Diff(want, shape(got)); d != "" {
		t.Errorf("steps (-want +got):\n%s", d)
	}
}

// TestTrajectoriesFiles: one file per rollout, named by task and sample,
// never twice the same name; a rollout with no message still has a step.
func TestTrajectoriesFiles(t *testing.T) {
	ef := evalFolder(&schemas.Trajectory{ID: "a"}, nil)
	ef.Results = append(ef.Results, ef.Results[0]) // the same task and sample twice
	ef.Results[1].Index = "../x"
	trs, names := Trajectories(ef)
	if want := []string{"task-2-sample-1.json", "task-x-sample-2.json", "task-2-sample-1-2.json"}; !cmp.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	dir := t.TempDir()
	if err := WriteTrajectories(dir, trs, names); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if steps, _ := back["steps"].([]any); len(steps) == 0 {
			t.Errorf("%s has no step", n)
		}
	}
}
