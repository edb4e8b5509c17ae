package inspectlog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"synth/bench"
	"synth/eval"
	"synth/schemas"
)

func folder() *eval.Folder {
	call := schemas.Message{Role: schemas.RoleAssistant, ToolCalls: []schemas.ToolCall{{ID: "c1", Name: "python", Arguments: `{"code":"print(1)"}`}}}
	bad := schemas.Message{Role: schemas.RoleAssistant, ToolCalls: []schemas.ToolCall{{ID: "c2", Name: "python", Arguments: `[1]`}}}
	traj := func(passed bool, checks ...schemas.CheckResult) *schemas.Trajectory {
		return &schemas.Trajectory{
			Messages: []schemas.Message{{Role: schemas.RoleSystem, Content: "sys"}, {Role: schemas.RoleUser, Content: "sum it"}, call,
				{Role: schemas.RoleTool, ToolCallID: "c1", Content: "1"}, bad, {Role: schemas.RoleAssistant, Content: "Finished: 1"}},
			FinalAnswer: "1", Usage: schemas.Usage{PromptTokens: 10, CompletionTokens: 5, CostUSD: 0.5},
			Verdict: &schemas.Verdict{Passed: passed, Checks: checks},
		}
	}
	return &eval.Folder{
		Bench: "out/bench", Version: "v1", Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Finished: time.Date(2026, 1, 2, 4, 0, 0, 0, time.UTC),
		Summary: bench.Summary{Model: "m", Teacher: "openai", BenchHash: "h", Samples: 2, Group: bench.Group{Tasks: 2, PassRate: 0.5, PassRateAllTasks: 0.25}},
		Results: []bench.Result{
			{Index: "10", TaskID: "t10", Sample: 1, Passed: false, Failure: "check_failed", Traj: traj(false, schemas.CheckResult{Kind: "answer", OK: false, Message: "want 2"})},
			{Index: "2", TaskID: "t2", Sample: 0, Passed: true, Traj: traj(true, schemas.CheckResult{Kind: "answer", OK: true, Message: "got 1"})},
			{Index: "10", TaskID: "t10", Sample: 0, Infra: true, Failure: "teacher_error", Traj: &schemas.Trajectory{Error: "503"}},
		},
	}
}

func TestBuildShape(t *testing.T) {
	l := Build(folder())
	dir := t.TempDir()
	path, err := Write(dir, l)
	if err != nil {
		t.Fatal(err)
	}
	// inspect view lists only files named as inspect names logs.
	if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\+00-00_bench_[0-9a-f]{22}\.json$`).MatchString(filepath.Base(path)) {
		t.Errorf("file name %s", filepath.Base(path))
	}
	b, _ := os.ReadFile(path)
	var got struct {
		Version int    `json:"version"`
		Status  string `json:"status"`
		Eval    struct {
			Created string         `json:"created"`
			Model   string         `json:"model"`
			Config  map[string]int `json:"config"`
			Dataset struct {
				SampleIDs []string `json:"sample_ids"`
			} `json:"dataset"`
		} `json:"eval"`
		Results struct {
			Scores []struct {
				Metrics map[string]struct{ Value float64 } `json:"metrics"`
			} `json:"scores"`
		} `json:"results"`
		Samples []map[string]json.RawMessage `json:"samples"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || got.Status != "success" || got.Eval.Created != "2026-01-02T03:04:05+00:00" || got.Eval.Model != "m" || got.Eval.Config["epochs"] != 2 {
		t.Errorf("header: %+v", got)
	}
	if got.Results.Scores[0].Metrics["accuracy"].Value != 0.5 || got.Results.Scores[0].Metrics["accuracy_all_tasks"].Value != 0.25 {
		t.Errorf("metrics: %+v", got.Results.Scores)
	}
	if len(got.Samples) != 3 || len(got.Eval.Dataset.SampleIDs) != 2 {
		t.Fatalf("%d samples, ids %v", len(got.Samples), got.Eval.Dataset.SampleIDs)
	}
	// Ordered by index, then epoch (sample + 1).
	for i, want := range []string{`"2"1`, `"10"1`, `"10"2`} {
		if s := string(got.Samples[i]["id"]) + string(got.Samples[i]["epoch"]); s != want {
			t.Errorf("sample %d is %s, want %s", i, s, want)
		}
	}
	passed, infra, failed := got.Samples[0], got.Samples[1], got.Samples[2]
	if compact(passed["input"]) != `[{"role":"system","content":"sys"},{"role":"user","content":"sum it"}]` {
		t.Errorf("input %s", passed["input"])
	}
	var score map[string]struct {
		Value, Answer, Explanation string
	}
	json.Unmarshal(passed["scores"], &score)
	if s := score[ScorerName]; s.Value != Correct || s.Answer != "1" || s.Explanation != "ok answer: got 1" {
		t.Errorf("passed score %s", passed["scores"])
	}
	json.Unmarshal(failed["scores"], &score)
	if s := score[ScorerName]; s.Value != Incorrect || s.Explanation != "failure: check_failed\nFAIL answer: want 2" {
		t.Errorf("failed score %s", failed["scores"])
	}
	if _, ok := infra["scores"]; ok || compact(infra["error"]) != `{"message":"teacher_error: 503","traceback":"","traceback_ansi":""}` {
		t.Errorf("infra sample: scores %s error %s", infra["scores"], infra["error"])
	}
	var msgs []Message
	json.Unmarshal(passed["messages"], &msgs)
	if len(msgs) != 6 || msgs[2].ToolCalls[0].Arguments["code"] != "print(1)" || msgs[3].Function != "python" || msgs[3].ToolCallID != "c1" {
		t.Errorf("messages %s", passed["messages"])
	}
	if tc := msgs[4].ToolCalls[0]; len(tc.Arguments) != 0 || tc.ParseError == "" {
		t.Errorf("arguments that are not an object: %+v", tc)
	}
}

func TestBuildIsStable(t *testing.T) {
	a, b := Build(folder()), Build(folder())
	if FileName(a) != FileName(b) {
		t.Errorf("%s != %s", FileName(a), FileName(b))
	}
	f := folder()
	f.Results[0].Passed = true
	if FileName(Build(f)) == FileName(a) {
		t.Error("other results, same log id")
	}
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	json.Compact(&b, raw)
	return b.String()
}
