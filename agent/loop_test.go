package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// echoSandbox "runs" a cell by returning its code as output; a cell that is
// "boom" is an infrastructure failure.
type echoSandbox struct{ cells []string }

func (s *echoSandbox) Exec(_ context.Context, code string) (sandbox.Result, error) {
	if code == "boom" {
		return sandbox.Result{}, errors.New("interpreter vanished")
	}
	s.cells = append(s.cells, code)
	return sandbox.Result{Status: schemas.StatusOK, Output: "ran: " + code}, nil
}
func (s *echoSandbox) Workspace() string { return "" }
func (s *echoSandbox) Close() error      { return nil }

// scripted replies with fixed assistant texts in order, then errors.
type scripted struct {
	replies []string
	err     error
}

func (s *scripted) Info() schemas.TeacherInfo { return schemas.TeacherInfo{Kind: "scripted"} }
func (s *scripted) Reply(_ context.Context, req Request) (Reply, error) {
	n := assistantTurns(req.Messages)
	if n >= len(s.replies) {
		return Reply{}, s.err
	}
	return Reply{Message: schemas.Message{Role: schemas.RoleAssistant, Content: s.replies[n]}, Usage: schemas.Usage{PromptTokens: 10, CompletionTokens: 5}}, nil
}

type contextError struct{}

func (contextError) Error() string       { return "HTTP 400: maximum context length exceeded" }
func (contextError) ContextLength() bool { return true }

type longError struct{}

func (longError) Error() string      { return "reply is longer than 16777216 bytes" }
func (longError) ReplyTooLong() bool { return true }

type budgetError struct{}

func (budgetError) Error() string { return "budget of $1.00 reached" }
func (budgetError) Budget() bool  { return true }

func TestRun(t *testing.T) {
	task := &schemas.Task{ID: "t1", Query: "Count the rows.", Files: []schemas.TaskFile{{Name: "a.csv"}, {Name: "b.xlsx"}}}
	code := func(c string) string { return "Analyse: x\nAction:\n```python\n" + c + "\n```" }
	tests := []struct {
		name     string
		replies  []string
		err      error
		opts     Options
		stop     string
		answer   string
		cells    []string
		wantErr  string
		messages int
	}{
		{name: "solves in two turns", replies: []string{code("a=1"), code("a+1"), "Finished: 2 rows"}, stop: schemas.StopFinished, answer: "2 rows", cells: []string{"a=1", "a+1"}, messages: 3 + 2*2 + 1},
		{name: "code wins over Finished in one turn", replies: []string{code("x=1") + "\nFinished: done", "Finished: ok"}, stop: schemas.StopFinished, answer: "ok", cells: []string{"x=1"}},
		{name: "untagged fence is code", replies: []string{"```\nprint(1)\n```", "Finished: 1"}, stop: schemas.StopFinished, answer: "1", cells: []string{"print(1)"}},
		{name: "unclosed fence is code", replies: []string{"```python\nprint(2)", "Finished: 2"}, stop: schemas.StopFinished, answer: "2", cells: []string{"print(2)"}},
		{name: "non-python fence is not code", replies: []string{"```bash\nls\n```", "still nothing"}, stop: schemas.StopNoCode},
		{name: "one nudge then code", replies: []string{"let me think", code("y=2"), "Finished: y"}, stop: schemas.StopFinished, answer: "y", cells: []string{"y=2"}},
		{name: "no nudge when disabled", replies: []string{"let me think", code("y=2")}, opts: Options{Nudge: "-"}, stop: schemas.StopNoCode},
		{name: "turn cap", replies: []string{code("1"), code("2"), code("3")}, opts: Options{MaxTurns: 2}, stop: schemas.StopMaxTurns, cells: []string{"1", "2"}},
		{name: "teacher error", replies: []string{code("1")}, err: errors.New("HTTP 500"), stop: schemas.StopTeacherError, wantErr: "turn 2: HTTP 500", cells: []string{"1"}},
		{name: "budget", replies: nil, err: budgetError{}, stop: schemas.StopBudget, wantErr: "budget"},
		{name: "context length", replies: nil, err: contextError{}, stop: schemas.StopContextLength, wantErr: "context"},
		{name: "reply too long", replies: nil, err: longError{}, stop: schemas.StopReplyTooLong, wantErr: "longer than"},
		{name: "recording ended", replies: nil, err: fmt.Errorf("task t1 sample 0: %w", ErrNotRecorded), stop: schemas.StopRecordingEnded, wantErr: "not recorded"},
		{name: "sandbox failure", replies: []string{code("boom")}, stop: schemas.StopSandboxError, wantErr: "interpreter vanished"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sb := &echoSandbox{}
			tr, err := Run(context.Background(), &scripted{replies: tc.replies, err: tc.err}, NewPyBench(), sb, task, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if tr.StopReason != tc.stop {
				t.Errorf("stop reason %q, want %q (error %q)", tr.StopReason, tc.stop, tr.Error)
			}
			if tr.FinalAnswer != tc.answer {
				t.Errorf("answer %q, want %q", tr.FinalAnswer, tc.answer)
			}
			if strings.Join(sb.cells, "|") != strings.Join(tc.cells, "|") {
				t.Errorf("cells %q, want %q", sb.cells, tc.cells)
			}
			if !strings.Contains(tr.Error, tc.wantErr) || (tc.wantErr == "" && tr.Error != "") {
				t.Errorf("error %q, want it to contain %q", tr.Error, tc.wantErr)
			}
			if tc.messages > 0 && len(tr.Messages) != tc.messages {
				t.Errorf("%d messages, want %d", len(tr.Messages), tc.messages)
			}
			if tr.Messages[0].Role != schemas.RoleSystem || tr.Messages[1].Content != "[INFO]The data is uploaded to ./data/a.csv,./data/b.xlsx" {
				t.Errorf("opening messages %+v", tr.Messages[:3])
			}
		})
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, &scripted{err: context.Canceled}, NewPyBench(), &echoSandbox{}, &schemas.Task{}, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestTruncate(t *testing.T) {
	long := strings.Repeat("a", 900) + strings.Repeat("z", 100)
	got := truncate(long, 100)
	if !strings.Contains(got, "[900 characters cut]") || !strings.HasPrefix(got, strings.Repeat("a", 75)) || !strings.HasSuffix(got, strings.Repeat("z", 25)) {
		t.Fatalf("truncate = %q", got)
	}
	if truncate("short", 100) != "short" {
		t.Fatal("short text changed")
	}
}

func TestReferencePlaysSteps(t *testing.T) {
	task := &schemas.Task{ID: "t", Query: "q", Reference: &schemas.Reference{
		Steps:  []schemas.RefStep{{Thought: "Load it.", Code: "import math"}, {Thought: "Compute.", Code: "math.sqrt(16)"}},
		Answer: "The root is 4.",
	}}
	sb := &echoSandbox{}
	tr, err := Run(context.Background(), NewReference(NewPyBench()), NewPyBench(), sb, task, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.StopReason != schemas.StopFinished || tr.FinalAnswer != "The root is 4." || len(sb.cells) != 2 {
		t.Fatalf("got stop %q answer %q cells %q", tr.StopReason, tr.FinalAnswer, sb.cells)
	}
	last := tr.Messages[len(tr.Messages)-1]
	if last.Role != schemas.RoleAssistant || !strings.HasPrefix(last.Content, "Finished:") {
		t.Fatalf("last message %+v", last)
	}
	if _, err := NewReference(NewPyBench()).Reply(context.Background(), Request{Task: &schemas.Task{ID: "x"}}); err == nil {
		t.Fatal("a task without a reference must be an error")
	}
}
