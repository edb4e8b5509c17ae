package eval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/agent"
	"synth/bench"
	"synth/rundir"
	"synth/schemas"
)

// pybenchBench writes a benchmark numbered like PyBench (2 and 5, a gap
// between) whose bench.json asks for the pybench scoring mode. Task 5 wants
// output/5.txt holding "five"; task 2 wants an answer naming 42.
func pybenchBench(t *testing.T) string {
	t.Helper()
	py := func(code string) []schemas.Check { return []schemas.Check{{Kind: schemas.CheckPython, Code: code}} }
	entries := []bench.Entry{
		{Task: schemas.Task{ID: "pb-2", Index: "2", Category: schemas.CategoryMath, Query: "What is 6*7?", Lang: "en", Generator: "pybench",
			Checks: py("assert '42' in messages[-1]['content']")}},
		{Task: schemas.Task{ID: "pb-5", Index: "5", Category: schemas.CategoryText, Query: "Write five to ./output/5.txt", Lang: "en", Generator: "pybench",
			Checks: py("assert open('./output/5.txt').read() == 'five'")}},
	}
	dir := filepath.Join(t.TempDir(), "bench")
	if err := bench.Write(dir, entries, bench.Info{SourceRun: "test", Scoring: bench.ScoringPyBench}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// pybenchTrajectories is a PyBench trajectory.jsonl: task 5 writes its
// file at once and then keeps writing code past the turn cap; task 2 runs
// a failing cell (its reply has a second block, which must not run) and
// then answers without code.
func pybenchTrajectories(t *testing.T) string {
	t.Helper()
	asst := func(s string) map[string]string { return map[string]string{"role": "assistant", "content": s} }
	var five []map[string]string
	five = append(five, asst("Action:\n```python\nopen('./output/5.txt', 'w').write('five')\n```"))
	for range 11 {
		five = append(five, asst("Action:\n```python\nprint('still going')\n```"))
	}
	two := []map[string]string{
		asst("Analyse: try\n```python\nprint('before')\n1/0\n```\nthen\n```python\nopen('./output/second.txt', 'w').write('ran')\n```"),
		asst("Finished: it is 42"),
	}
	var b strings.Builder
	for _, rec := range []map[string]any{{"index": "5", "messages": five}, {"index": "2", "messages": two}} {
		line, _ := json.Marshal(rec)
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "trajectory.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func resultsByIndex(t *testing.T, out string) map[string]bench.Result {
	t.Helper()
	got := map[string]bench.Result{}
	err := rundir.ReadJournal(filepath.Join(out, rundir.EvalResults), func(r bench.Result) error { got[r.Index] = r; return nil })
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestEvalScoringModes replays one trajectory file on one benchmark in
// both modes: the rollout that hit the turn cap but left the right file
// passes the PyBench way and fails synth's strict way.
func TestEvalScoringModes(t *testing.T) {
	needPython(t)
	dir, file := pybenchBench(t), pybenchTrajectories(t)
	cfg := Config{Bench: dir, Teacher: agent.Config{Kind: TeacherReplay, Replay: file}, Concurrency: 2}

	out := t.TempDir()
	s := runEval(t, cfg, out).Summary // bench.json: pybench
	rs := resultsByIndex(t, out)
	if s.Scoring != bench.ScoringPyBench || s.TurnCap != 10 || s.Passed != 2 || s.Rollouts != 2 {
		t.Errorf("pybench mode: scoring %q, turn cap %d, passed %d/%d; want pybench, 10, 2/2", s.Scoring, s.TurnCap, s.Passed, s.Rollouts)
	}
	if r := rs["5"]; !r.Passed || r.Traj.StopReason != schemas.StopMaxTurns || r.Turns != 10 {
		t.Errorf("task 5 in pybench mode: passed %v, stop %s, turns %d; want a pass at the turn cap of 10", r.Passed, r.Traj.StopReason, r.Turns)
	}
	m := readSummaryJSON(t, out)
	if m["scoring"] != bench.ScoringPyBench {
		t.Errorf("summary.json scoring = %v", m["scoring"])
	}
	if rep, _ := os.ReadFile(filepath.Join(out, rundir.EvalReport)); !strings.Contains(string(rep), "scoring: pybench") {
		t.Errorf("report.md does not say the mode:\n%s", rep)
	}

	cfg.Scoring = bench.ScoringStrict
	out = t.TempDir()
	s = runEval(t, cfg, out).Summary
	rs = resultsByIndex(t, out)
	if s.Scoring != bench.ScoringStrict || rs["5"].Passed || rs["5"].Failure != schemas.FailMaxTurns {
		t.Errorf("strict mode: scoring %q, task 5 passed %v failure %q; want strict, a max_turns failure", s.Scoring, rs["5"].Passed, rs["5"].Failure)
	}
	if !rs["2"].Passed {
		t.Errorf("strict mode: task 2 (finished, right answer) failed: %s", rs["2"].Failure)
	}
}

// TestEvalPyBenchConversation checks the conversation of the pybench mode
// byte for byte against PyBench's inference.py: its system prompt, the
// upload notice of a task without files, the first code block run, and a
// failing cell's observation without the traceback.
func TestEvalPyBenchConversation(t *testing.T) {
	needPython(t)
	dir, file := pybenchBench(t), pybenchTrajectories(t)
	out := t.TempDir()
	runEval(t, Config{Bench: dir, Teacher: agent.Config{Kind: TeacherReplay, Replay: file}, Concurrency: 2}, out)
	r := resultsByIndex(t, out)["2"]
	msgs := r.Traj.Messages
	if len(msgs) != 6 {
		t.Fatalf("task 2 has %d messages, want 6: %+v", len(msgs), msgs)
	}
	want := []string{
		agent.PyBenchGPTPrompt,
		"[INFO]The data is uploaded to ",
		"What is 6*7?",
		"",
		"[INFO]This is a Code Interpreter Message:\nbefore\nThere are some errors in the code. All variables in this cell should be redefined. Please Debug:\nError: ZeroDivisionError\ndivision by zero\n",
		"Finished: it is 42",
	}
	for i, w := range want {
		if w != "" && msgs[i].Content != w {
			t.Errorf("message %d:\n got %q\nwant %q", i, msgs[i].Content, w)
		}
	}
	if len(r.Traj.Steps) != 1 || r.Traj.Steps[0].Code != "print('before')\n1/0" {
		t.Errorf("steps = %+v; want only the first block run", r.Traj.Steps)
	}
	for _, a := range r.Traj.Artifacts {
		if strings.Contains(a.Path, "second") {
			t.Errorf("the reply's second code block ran: %+v", a)
		}
	}

	out = t.TempDir()
	runEval(t, Config{Bench: dir, Teacher: agent.Config{Kind: TeacherReplay, Replay: file}, Concurrency: 2, PyBenchPrompt: agent.PromptLocal}, out)
	if got := resultsByIndex(t, out)["2"].Traj.Messages[0].Content; got != agent.PyBenchLocalPrompt || !strings.Contains(got, "<|execute_start|>") {
		t.Errorf("local prompt: %q", got)
	}
}
