package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/agent"
	"synth/schemas"
)

func TestReplayPyBench(t *testing.T) {
	r, err := agent.LoadReplay("testdata/pybench_trajectory.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 2 {
		t.Errorf("Len = %d, want 2", r.Len())
	}
	sb := &cellSandbox{}
	tk := &schemas.Task{ID: "pybench-7", Index: "7", Query: "How many rows?"}
	tr, err := agent.Run(context.Background(), r, agent.NewPyBench(), sb, tk, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.StopReason != schemas.StopFinished || tr.FinalAnswer != "3 rows" || len(tr.Steps) != 2 || tr.Steps[1].Observation != "3" {
		t.Errorf("trajectory = %+v", tr)
	}
	if got := strings.Join(sb.cells, "|"); got != "print('loaded')|print(3)" {
		t.Errorf("cells run = %q", got)
	}
	if tr.Teacher.Kind != "replay" {
		t.Errorf("teacher = %+v", tr.Teacher)
	}

	// A recording that stops early ends the rollout as a teacher error.
	tr, err = agent.Run(context.Background(), r, agent.NewPyBench(), &cellSandbox{}, &schemas.Task{ID: "x", Index: "8"}, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.StopReason != schemas.StopRecordingEnded || !strings.Contains(tr.Error, "ends after 1 turns") {
		t.Errorf("short recording: %+v", tr)
	}
	_, err = r.Reply(context.Background(), agent.Request{Task: &schemas.Task{ID: "nope", Index: "99"}})
	if !errors.Is(err, agent.ErrNotRecorded) {
		t.Errorf("unknown task: %v", err)
	}
}

func TestReplaySynth(t *testing.T) {
	r, err := agent.LoadReplay("testdata/trajectories.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if r.Recordings(task) != 2 || r.Info().Model != "gpt-x" {
		t.Fatalf("recordings %d info %+v", r.Recordings(task), r.Info())
	}
	f := agent.NewToolsFormat()
	tr, err := agent.Run(context.Background(), r, f, &cellSandbox{}, task, agent.Options{Sample: 0})
	if err != nil {
		t.Fatal(err)
	}
	if tr.StopReason != schemas.StopFinished || tr.FinalAnswer != "5 rows" || len(tr.Steps) != 1 || tr.Steps[0].Observation != "5" {
		t.Errorf("sample 0: %+v", tr)
	}
	tr, _ = agent.Run(context.Background(), r, f, &cellSandbox{}, task, agent.Options{Sample: 1})
	if len(tr.Steps) != 1 || tr.Steps[0].Status != schemas.StatusError || tr.StopReason != schemas.StopRecordingEnded {
		t.Errorf("sample 1 (OpenAI-style tool calls): %+v", tr)
	}
	tr, _ = agent.Run(context.Background(), r, f, &cellSandbox{}, task, agent.Options{Sample: 2})
	if tr.StopReason != schemas.StopRecordingEnded || !strings.Contains(tr.Error, "2 recordings") {
		t.Errorf("sample 2: %+v", tr)
	}
}

func TestLoadReplayErrors(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"bad.jsonl":     "{\"index\": 1, \"messages\": []}\nnot json\n",
		"nokey.jsonl":   "{\"messages\": []}\n",
		"empty.jsonl":   "\n",
		"missing.jsonl": "",
		"long.jsonl":    "{\"index\": 1, \"messages\": []}\n{\"index\": \"" + strings.Repeat("x", agent.MaxReplayLine) + "\"}\n",
	} {
		p := filepath.Join(dir, name)
		if name != "missing.jsonl" {
			os.WriteFile(p, []byte(body), 0o644)
		}
		if _, err := agent.LoadReplay(p); err == nil {
			t.Errorf("%s: no error", name)
		} else if name == "bad.jsonl" && !strings.Contains(err.Error(), "bad.jsonl:2") {
			t.Errorf("%s: error %q does not name the line", name, err)
		} else if name == "long.jsonl" && !strings.Contains(err.Error(), "long.jsonl:2: line longer than") {
			t.Errorf("%s: error %q", name, err)
		}
	}
}
