package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"synth/agent"
	"synth/llm"
	"synth/llm/llmtest"
	"synth/pyenv/pyenvtest"
	"synth/sandbox"
	"synth/schemas"
)

var task = &schemas.Task{ID: "t1", Query: "How many rows does the file have?",
	Files: []schemas.TaskFile{{ID: "f", Name: "a.csv"}}}

func client(t *testing.T, srv *llmtest.Server, mod func(*llm.Config), opts ...llm.Option) *llm.Client {
	t.Helper()
	cfg := llm.Config{Endpoints: []llm.Endpoint{{BaseURL: srv.URL, Model: "teacher-m", KeyEnv: "NO_SUCH_KEY_ENV"}}, MaxRetries: 1}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.New(cfg, append([]llm.Option{llm.WithBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func zero() *float64 { v := 0.0; return &v }

func TestOpenAIPyBench(t *testing.T) {
	pb := llmtest.PyBench
	tests := []struct {
		name     string
		scripts  []llmtest.Script
		mod      func(*llm.Config)
		stop     string
		answer   string
		statuses []string
		requests int
		inError  string
		check    func(t *testing.T, calls []llmtest.Call)
	}{
		{
			name: "solves in three turns",
			scripts: []llmtest.Script{llmtest.Texts(
				pb("Load the file.", "Read the csv.", "import pandas as pd\nprint('loaded')"),
				pb("Count.", "Count rows.", "print(3)"),
				"Finished: The file has 3 rows.")},
			stop: schemas.StopFinished, answer: "The file has 3 rows.", statuses: []string{"ok", "ok"}, requests: 3,
			check: func(t *testing.T, calls []llmtest.Call) {
				last := calls[2].Last()
				if last.Role != schemas.RoleUser || !strings.HasPrefix(last.Content, "[INFO]This is a Code Interpreter Message:\n3") {
					t.Errorf("third request ends with %+v", last)
				}
			},
		},
		{
			name: "broken code then fixed",
			scripts: []llmtest.Script{llmtest.Texts(
				pb("Load.", "Load.", "raise ValueError('broken')"),
				pb("Fix it.", "Fix.", "print(3)"),
				"Finished: 3")},
			stop: schemas.StopFinished, answer: "3", statuses: []string{"error", "ok"}, requests: 3,
			check: func(t *testing.T, calls []llmtest.Call) {
				if !strings.Contains(calls[1].Last().Content, "Traceback") {
					t.Errorf("the traceback did not reach the teacher: %+v", calls[1].Last())
				}
			},
		},
		{
			name:     "never writes code",
			scripts:  []llmtest.Script{llmtest.Say("I would look at the data first.")},
			stop:     schemas.StopNoCode,
			requests: 2,
			check: func(t *testing.T, calls []llmtest.Call) {
				if got := calls[1].Last().Content; got != "Please write code." {
					t.Errorf("nudge sent = %q", got)
				}
			},
		},
		{
			name: "malformed fences",
			scripts: []llmtest.Script{llmtest.Texts(
				"Analyse: start\nAction:\n```python\nprint(1)", // unclosed: still code
				"```javascript\nconsole.log(1)\n```",           // not python: nudged
				"Finished: 1")},
			stop: schemas.StopFinished, answer: "1", statuses: []string{"ok"}, requests: 3,
		},
		{
			name: "invented observation is cut",
			scripts: []llmtest.Script{llmtest.Texts(
				pb("a", "b", "print(2)")+"\n[INFO]This is a Code Interpreter Message:\n999\nFinished: 999",
				"Finished: 2")},
			stop: schemas.StopFinished, answer: "2", statuses: []string{"ok"}, requests: 2,
		},
		{
			name:    "usage past the budget",
			scripts: []llmtest.Script{llmtest.Always(llmtest.Reply{Content: pb("a", "b", "print(1)"), PromptTokens: 600, CompletionTokens: 600})},
			mod: func(c *llm.Config) {
				c.Prices = map[string]llm.Price{"teacher-m": {Input: 1, Output: 1}}
				c.MaxCostUSD = 0.001
			},
			stop: schemas.StopBudget, statuses: []string{"ok"}, requests: 1, inError: "max_cost_usd",
		},
		{
			name:    "bad key",
			scripts: []llmtest.Script{llmtest.Status(http.StatusUnauthorized, 0)},
			stop:    schemas.StopTeacherError, requests: 1, inError: "$NO_SUCH_KEY_ENV",
		},
		{
			name:    "429 then 500 then ok",
			scripts: []llmtest.Script{llmtest.TooManyRequests(0), llmtest.Status(500, 0), llmtest.Say("Finished: ok")},
			mod:     func(c *llm.Config) { c.MaxRetries = 3 },
			stop:    schemas.StopFinished, answer: "ok", requests: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tc.scripts...)
			cfg := agent.Config{Format: "pybench", Temperature: zero(), Nudge: "Please write code."}
			teacher := agent.NewOpenAI(client(t, srv, tc.mod), cfg)
			sb := &cellSandbox{}
			tr, err := agent.Run(context.Background(), teacher, agent.NewPyBench(), sb, task,
				agent.Options{ID: "r1", Nudge: cfg.Nudge, MaxTurns: 6})
			if err != nil {
				t.Fatal(err)
			}
			if tr.StopReason != tc.stop || tr.FinalAnswer != tc.answer {
				t.Errorf("stop %q answer %q, want %q %q (error %q)", tr.StopReason, tr.FinalAnswer, tc.stop, tc.answer, tr.Error)
			}
			var statuses []string
			for _, s := range tr.Steps {
				statuses = append(statuses, s.Status)
			}
			if strings.Join(statuses, ",") != strings.Join(tc.statuses, ",") {
				t.Errorf("steps %v, want %v", statuses, tc.statuses)
			}
			if tc.inError != "" && !strings.Contains(tr.Error, tc.inError) {
				t.Errorf("error %q does not mention %q", tr.Error, tc.inError)
			}
			calls := srv.Calls()
			if len(calls) != tc.requests {
				t.Fatalf("server got %d requests, want %d", len(calls), tc.requests)
			}
			for i, c := range calls {
				if temp, ok := c.Body["temperature"]; !ok || temp != 0.0 {
					t.Errorf("request %d: temperature = %v, %v; want 0 sent", i, temp, ok)
				}
				if c.Model != "teacher-m" || c.Messages[0].Role != schemas.RoleSystem || c.Query() != task.Query {
					t.Errorf("request %d: model %q, messages %+v", i, c.Model, c.Messages)
				}
				if _, ok := c.Body["tools"]; ok {
					t.Errorf("request %d: pybench format sent tools", i)
				}
			}
			if tc.stop == schemas.StopFinished && tr.Usage.PromptTokens == 0 {
				t.Errorf("usage not recorded: %+v", tr.Usage)
			}
			if info := tr.Teacher; info.Kind != "openai" || info.Model != "teacher-m" || info.Endpoint != srv.URL {
				t.Errorf("teacher = %+v", info)
			}
			if tc.check != nil {
				tc.check(t, calls)
			}
		})
	}
}

func TestOpenAITools(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Conversation(
		llmtest.Reply{Content: "Load it.", ToolCalls: []schemas.ToolCall{
			{Name: "execute_python", Arguments: `{"code": "print(3)"}`},
			{Name: "execute_python", Arguments: `{"code": "print(4)"}`}}},
		llmtest.ToolReply("raise ValueError()"),
		llmtest.Reply{Content: "The file has 3 rows."}))
	cfg := agent.Config{Format: "openai-tools"}
	f := agent.NewToolsFormat()
	tr, err := agent.Run(context.Background(), agent.NewOpenAI(client(t, srv, nil), cfg), f, &cellSandbox{}, task, agent.Options{ID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.StopReason != schemas.StopFinished || tr.FinalAnswer != "The file has 3 rows." || len(tr.Steps) != 2 || tr.Steps[0].Observation != "3" {
		t.Fatalf("trajectory = %+v", tr)
	}
	calls := srv.Calls()
	if len(calls) != 3 {
		t.Fatalf("server got %d requests", len(calls))
	}
	for i, c := range calls {
		tools, _ := json.Marshal(c.Body["tools"])
		if !strings.Contains(string(tools), `"execute_python"`) || c.Body["parallel_tool_calls"] != false || c.Body["temperature"] != agent.DefaultTemperature {
			t.Errorf("request %d: body %s", i, c.Raw)
		}
	}
	// The second request carries one call and its answer.
	msgs := calls[1].Messages
	asst, tool := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if len(asst.ToolCalls) != 1 || tool.Role != schemas.RoleTool || tool.ToolCallID != asst.ToolCalls[0].ID || tool.Content != "3" {
		t.Errorf("second request ends with %+v, %+v", asst, tool)
	}
	var decoded []map[string]any
	if err := json.Unmarshal([]byte(*f.Tools()), &decoded); err != nil || len(decoded) != 1 {
		t.Errorf("Tools() = %s: %v", *f.Tools(), err)
	}
}

func TestOpenAISamplesAndCache(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Texts(llmtest.PyBench("a", "b", "print(1)"), "Finished: 1"))
	dir := t.TempDir()
	run := func() []*schemas.Trajectory {
		teacher := agent.NewOpenAI(client(t, srv, nil, llm.WithCache(dir)), agent.Config{})
		var out []*schemas.Trajectory
		for s := 0; s < 2; s++ {
			tr, err := agent.Run(context.Background(), teacher, agent.NewPyBench(), &cellSandbox{}, task, agent.Options{Sample: s})
			if err != nil || tr.StopReason != schemas.StopFinished {
				t.Fatalf("sample %d: %+v %v", s, tr, err)
			}
			out = append(out, tr)
		}
		return out
	}
	first := run()
	if n := srv.Count(); n != 4 {
		t.Fatalf("first run: %d requests, want 4 (2 samples x 2 turns)", n)
	}
	second := run()
	if n := srv.Count(); n != 4 {
		t.Errorf("rerun made %d new requests, want 0", n-4)
	}
	for i := range first {
		a, _ := json.Marshal(first[i].Messages)
		b, _ := json.Marshal(second[i].Messages)
		if string(a) != string(b) {
			t.Errorf("sample %d differs on rerun", i)
		}
	}
}

func TestEmpty(t *testing.T) {
	for _, f := range []agent.Format{agent.NewPyBench(), agent.NewToolsFormat()} {
		sb := &cellSandbox{}
		tr, err := agent.Run(context.Background(), agent.NewEmpty(), f, sb, task, agent.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tr.StopReason != schemas.StopFinished || tr.FinalAnswer != "" || len(sb.cells) != 0 || tr.Teacher.Kind != "empty" {
			t.Errorf("%s: %+v", f.Name(), tr)
		}
	}
}

func TestSystemPromptFor(t *testing.T) {
	if got := (agent.Config{}).SystemPromptFor("x"); got != "" {
		t.Errorf("no prompts: %q", got)
	}
	c := agent.Config{SystemPrompts: []string{"a", "b", "c"}}
	seen := map[string]bool{}
	for _, id := range []string{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"} {
		p := c.SystemPromptFor(id)
		if p != c.SystemPromptFor(id) {
			t.Fatal("not stable")
		}
		seen[p] = true
	}
	if len(seen) < 2 {
		t.Errorf("ten rollouts used only %v", seen)
	}
}

// TestTeacherConformance holds every teacher to the Teacher contract: it
// names itself, keeps no state between calls (the same request gives the
// same turn), serves many rollouts at once, and writes assistant turns.
func TestTeacherConformance(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Texts(llmtest.PyBench("a", "b", "print(1)"), "Finished: 1"))
	replay, err := agent.LoadReplay("testdata/trajectories.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	f := agent.NewPyBench()
	ref := &schemas.Task{ID: "t1", Query: task.Query, Reference: &schemas.Reference{
		Steps: []schemas.RefStep{{Thought: "go", Code: "print(1)"}}, Answer: "1"}}
	teachers := map[string]agent.Teacher{
		"openai":    agent.NewOpenAI(client(t, srv, nil, llm.WithCache(t.TempDir())), agent.Config{Temperature: zero()}),
		"empty":     agent.NewEmpty(),
		"replay":    replay,
		"reference": agent.NewReference(f),
	}
	for name, teacher := range teachers {
		t.Run(name, func(t *testing.T) {
			if teacher.Info().Kind == "" {
				t.Error("Info().Kind is empty")
			}
			req := agent.Request{Task: ref, Messages: f.Start(ref, "")}
			a, err := teacher.Reply(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := teacher.Reply(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if a.Message.Content != b.Message.Content || a.Message.Role != schemas.RoleAssistant {
				t.Errorf("replies differ or are not assistant turns: %+v / %+v", a.Message, b.Message)
			}
			done := make(chan error)
			for i := range 8 {
				go func() {
					tr, err := agent.Run(context.Background(), teacher, f, &cellSandbox{}, ref, agent.Options{ID: fmt.Sprint(i)})
					if err == nil && tr.StopReason == "" {
						err = fmt.Errorf("no stop reason")
					}
					done <- err
				}()
			}
			for range 8 {
				if err := <-done; err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestOpenAIRealSandbox runs a scripted teacher's code in the real Python
// sandbox: broken code, its fix, and the answer.
func TestOpenAIRealSandbox(t *testing.T) {
	pyenvtest.Python(t)
	be, err := sandbox.New(sandbox.Config{Slots: 1})
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	defer be.Close()
	csv := filepath.Join(t.TempDir(), "a.csv")
	if err := os.WriteFile(csv, []byte("x,y\n1,2\n3,4\n5,6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb, err := be.Open(context.Background(), sandbox.Spec{Inputs: []sandbox.Input{{Name: "a.csv", Path: csv}}})
	if err != nil {
		t.Fatalf("opening a sandbox: %v", err)
	}
	defer sb.Close()
	srv := llmtest.NewServer(t, llmtest.Texts(
		llmtest.PyBench("Load the file.", "Read it.", "import pandas as pd\ndf = pd.read_csv('./data/a.csv')\nprint(len(df) / undefined_name)"),
		llmtest.PyBench("The name was wrong.", "Count rows.", "print(len(df))"),
		"Finished: The file has 3 rows."))
	tr, err := agent.Run(context.Background(), agent.NewOpenAI(client(t, srv, nil), agent.Config{}), agent.NewPyBench(), sb, task, agent.Options{ID: "real"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.StopReason != schemas.StopFinished || len(tr.Steps) != 2 {
		t.Fatalf("trajectory = %+v", tr)
	}
	if s := tr.Steps[0]; s.Status != schemas.StatusError || !strings.Contains(s.Observation, "NameError") {
		t.Errorf("step 1 = %+v", s)
	}
	if s := tr.Steps[1]; s.Status != schemas.StatusOK || strings.TrimSpace(s.Observation) != "3" {
		t.Errorf("step 2 = %+v (state should survive the failed cell)", s)
	}
	if !strings.Contains(srv.Calls()[1].Last().Content, "NameError") {
		t.Errorf("the traceback did not reach the teacher")
	}
}
