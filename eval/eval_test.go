package eval

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/agent"
	"synth/bench"
	"synth/internal/testenv"
	"synth/llm"
	"synth/llm/llmtest"
	"synth/rollout"
	"synth/rundir"
	"synth/sandbox"
	"synth/schemas"
)

// evalBench is a hand-made benchmark: two data-analysis tasks (csv), one
// text-analysis task (txt) and one math task without files; each with a
// reference solution of one or two steps. It stays in pipeline's testdata:
// serve's and cmd/synth's tests, the README and the scripts read it there.
const evalBench = "../pipeline/testdata/evalbench"

var (
	evalBackendOnce sync.Once
	evalBackendErr  error
	evalBackendB    sandbox.Backend
)

// sharedEvalBackend is one sandbox backend for the eval tests, so that each
// eval does not start its own warm interpreter.
func sharedEvalBackend(t *testing.T) sandbox.Backend {
	t.Helper()
	evalBackendOnce.Do(func() { evalBackendB, evalBackendErr = sandbox.New(rollout.BackendConfig(sandbox.Config{}, 4)) })
	if evalBackendErr != nil {
		t.Fatal(evalBackendErr)
	}
	return evalBackendB
}

func evalTasks(t *testing.T) []schemas.Task {
	t.Helper()
	tasks, err := bench.Load(evalBench)
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// solver answers like a model that knows each task's reference solution: it
// finds the task by its query and plays the reference turn by turn.
func refSolver(tasks []schemas.Task, solves func(*schemas.Task) bool) llmtest.Script {
	byQuery := map[string]*schemas.Task{}
	for i := range tasks {
		byQuery[tasks[i].Query] = &tasks[i]
	}
	f := agent.NewPyBench()
	return func(c llmtest.Call) llmtest.Reply {
		task := byQuery[c.Query()]
		if task == nil {
			return llmtest.Reply{Content: "Finished: which task is this?"}
		}
		if !solves(task) {
			return llmtest.Reply{Content: "Finished: I cannot do this one."}
		}
		ref := task.Reference
		if n := c.Turn(); n < len(ref.Steps) {
			return llmtest.Reply{Content: f.Render(agent.Action{Code: ref.Steps[n].Code}, ref.Steps[n].Thought).Content, PromptTokens: 100, CompletionTokens: 20}
		}
		return llmtest.Reply{Content: "Finished: " + ref.Answer, PromptTokens: 100, CompletionTokens: 10}
	}
}

func evalConfig(kind string, url string) Config {
	cfg := Config{
		Bench:       evalBench,
		Teacher:     agent.Config{Kind: kind, MaxTurns: 3},
		Concurrency: 2,
	}
	if url != "" {
		cfg.LLM = llm.Config{Endpoints: []llm.Endpoint{{BaseURL: url, Model: "fake-model", KeyEnv: "SYNTH_TEST_NO_KEY"}}, MaxRetries: 2,
			Prices: map[string]llm.Price{"fake-model": {Input: 1, Output: 2}}}
	}
	return cfg
}

func runEval(t *testing.T, cfg Config, out string) *Result {
	t.Helper()
	res, err := Evaluate(context.Background(), cfg, Options{Out: out, Backend: sharedEvalBackend(t), LLMOptions: []llm.Option{llm.WithBackoff(time.Millisecond, 5*time.Millisecond)}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func evalNear(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// summaryFile reads summary.json as a script would.
func readSummaryJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, rundir.EvalSummary))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEvalTeachersOfKnownSkill(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	all := func(*schemas.Task) bool { return true }
	dataOnly := func(t *schemas.Task) bool { return t.Category == schemas.CategoryData }
	buggy := func(llmtest.Call) llmtest.Reply {
		return llmtest.Reply{Content: llmtest.PyBench("try", "try", "raise ValueError('boom')")}
	}
	type want struct {
		passRate, avgTurns, avgTurnsPyBench float64
		passed, rollouts, infra             int
		perCat                              map[string]float64
		failures                            map[string]int
	}
	cases := []struct {
		name    string
		kind    string
		scripts []llmtest.Script
		want    want
	}{
		{"reference", TeacherReference, nil, want{1, 2.5, 2.5, 4, 4, 0, // the scripted teacher also looks at a table's types
			map[string]float64{schemas.CategoryData: 1, schemas.CategoryText: 1, schemas.CategoryMath: 1}, map[string]int{}}},
		{"empty", TeacherEmpty, nil, want{0, 0, 3, 0, 4, 0,
			map[string]float64{schemas.CategoryData: 0, schemas.CategoryText: 0, schemas.CategoryMath: 0}, map[string]int{schemas.FailCheck: 4}}},
		{"solves all", TeacherOpenAI, []llmtest.Script{refSolver(tasks, all)}, want{1, 2.25, 2.25, 4, 4, 0,
			map[string]float64{schemas.CategoryData: 1, schemas.CategoryText: 1, schemas.CategoryMath: 1}, map[string]int{}}},
		// Data tasks take 2 and 3 turns; the two others fail and count as the cap, 3.
		{"solves data analysis only", TeacherOpenAI, []llmtest.Script{refSolver(tasks, dataOnly)}, want{0.5, 2.5, 2.75, 2, 4, 0,
			map[string]float64{schemas.CategoryData: 1, schemas.CategoryText: 0, schemas.CategoryMath: 0}, map[string]int{schemas.FailCheck: 2}}},
		{"code always raises", TeacherOpenAI, []llmtest.Script{buggy}, want{0, 0, 3, 0, 4, 0,
			map[string]float64{schemas.CategoryData: 0, schemas.CategoryText: 0, schemas.CategoryMath: 0}, map[string]int{schemas.FailMaxTurns: 4}}},
		// The first calls are refused with 429 and retried: the figures are
		// those of the solver.
		{"429 then solves", TeacherOpenAI, []llmtest.Script{llmtest.TooManyRequests(0), llmtest.TooManyRequests(0), refSolver(tasks, all)}, want{1, 2.25, 2.25, 4, 4, 0,
			map[string]float64{schemas.CategoryData: 1, schemas.CategoryText: 1, schemas.CategoryMath: 1}, map[string]int{}}},
		// An endpoint that always fails is the infrastructure's fault:
		// nothing is scored, nothing counts as a model failure.
		{"endpoint always 500", TeacherOpenAI, []llmtest.Script{llmtest.Status(500, 0)}, want{0, 0, 0, 0, 0, 4,
			map[string]float64{schemas.CategoryData: 0, schemas.CategoryText: 0, schemas.CategoryMath: 0}, map[string]int{}}},
		{"endpoint always 429", TeacherOpenAI, []llmtest.Script{llmtest.TooManyRequests(0)}, want{0, 0, 0, 0, 0, 4,
			map[string]float64{schemas.CategoryData: 0, schemas.CategoryText: 0, schemas.CategoryMath: 0}, map[string]int{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := ""
			if tc.scripts != nil {
				url = llmtest.NewServer(t, tc.scripts...).URL
			}
			cfg := evalConfig(tc.kind, url)
			cfg.InfraRetries = 1
			// Failures are recorded one by one here; the circuit breaker,
			// which stops a run of them, is tested in llm and endpoints_test.
			cfg.LLM.BreakerFailures = 1000
			out := t.TempDir()
			res := runEval(t, cfg, out)
			s, w := res.Summary, tc.want
			if !evalNear(s.PassRate, w.passRate) || s.Passed != w.passed || s.Rollouts != w.rollouts || s.InfraErrors != w.infra {
				t.Errorf("pass rate %v (%d/%d), infra %d; want %v (%d/%d), infra %d", s.PassRate, s.Passed, s.Rollouts, s.InfraErrors, w.passRate, w.passed, w.rollouts, w.infra)
			}
			if !evalNear(s.AvgTurns, w.avgTurns) || !evalNear(s.AvgTurnsPyBench, w.avgTurnsPyBench) {
				t.Errorf("avg turns %v, PyBench %v; want %v, %v", s.AvgTurns, s.AvgTurnsPyBench, w.avgTurns, w.avgTurnsPyBench)
			}
			for c, rate := range w.perCat {
				if g, ok := s.PerCategory[c]; !ok || !evalNear(g.PassRate, rate) {
					t.Errorf("category %s: pass rate %v (present %v), want %v", c, g.PassRate, ok, rate)
				}
			}
			if len(s.PerCategory) != len(w.perCat) {
				t.Errorf("categories %v, want %v", s.PerCategory, w.perCat)
			}
			if !maps.Equal(s.Failures, w.failures) {
				t.Errorf("failures %v, want %v", s.Failures, w.failures)
			}
			if s.Tasks != 4 {
				t.Errorf("tasks %d, want 4", s.Tasks)
			}
			if w.infra > 0 && s.Infra[schemas.FailTeacherError] != w.infra {
				t.Errorf("infra by reason %v, want %d teacher_error", s.Infra, w.infra)
			}
			m := readSummaryJSON(t, out)
			for _, k := range []string{"pass_rate", "per_category", "avg_turns", "avg_turns_pybench", "tasks", "passed", "infra_errors"} {
				if _, ok := m[k]; !ok {
					t.Errorf("summary.json has no %q", k)
				}
			}
			if m["pass_rate"].(float64) != s.PassRate || int(m["infra_errors"].(float64)) != w.infra {
				t.Errorf("summary.json pass_rate %v infra_errors %v differ from the result", m["pass_rate"], m["infra_errors"])
			}
			lines, err := rundir.ReadAll[bench.Result](filepath.Join(out, rundir.EvalResults))
			if err != nil || len(lines) != 4 {
				t.Fatalf("results.jsonl: %d lines, %v; want 4", len(lines), err)
			}
			for _, l := range lines {
				if l.Traj == nil || l.Traj.Verdict == nil || l.Index == "" {
					t.Errorf("result %s lacks its trajectory, verdict or index", l.ID)
				}
			}
			rep, err := os.ReadFile(res.Report)
			if err != nil || !strings.Contains(string(rep), "pass rate (pass@1)") {
				t.Errorf("report.md: %v\n%s", err, rep)
			}
		})
	}
}

func TestEvalTokensAndCost(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	srv := llmtest.NewServer(t, refSolver(tasks, func(*schemas.Task) bool { return true }))
	res := runEval(t, evalConfig(TeacherOpenAI, srv.URL), t.TempDir())
	// 9 replies of 100 prompt tokens; 5 code turns of 20 and 4 answers of
	// 10 completion tokens; $1 and $2 per million.
	s := res.Summary
	if s.Tokens != 900+140 || !evalNear(s.TokensPerTask, 1040.0/4) {
		t.Errorf("tokens %d (%v per task), want 1040 (260)", s.Tokens, s.TokensPerTask)
	}
	if want := (900*1.0 + 140*2.0) / 1e6; !evalNear(s.CostUSD, want) || !evalNear(s.CostPerTask, want/4) {
		t.Errorf("cost %v (%v per task), want %v", s.CostUSD, s.CostPerTask, want)
	}
}

func TestEvalPassAtK(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	// The math task is solved by one of its two samples: the first reply
	// to it is wrong, later ones right.
	var mu sync.Mutex
	mathCalls := 0
	solve := refSolver(tasks, func(*schemas.Task) bool { return true })
	script := func(c llmtest.Call) llmtest.Reply {
		if c.Query() == "What is 17 times 23?" && c.Turn() == 0 {
			mu.Lock()
			mathCalls++
			first := mathCalls == 1
			mu.Unlock()
			if first {
				return llmtest.Reply{Content: "Finished: 400"}
			}
		}
		return solve(c)
	}
	srv := llmtest.NewServer(t, script)
	cfg := evalConfig(TeacherOpenAI, srv.URL)
	cfg.Teacher.Samples = 2
	res := runEval(t, cfg, t.TempDir())
	s := res.Summary
	if s.Samples != 2 || s.Rollouts != 8 || s.Passed != 7 {
		t.Fatalf("samples %d, rollouts %d, passed %d; want 2, 8, 7", s.Samples, s.Rollouts, s.Passed)
	}
	if !evalNear(s.PassAtK["1"], 3.5/4) || !evalNear(s.PassRate, 3.5/4) || !evalNear(s.PassAtK["2"], 1) {
		t.Errorf("pass@1 %v, pass@2 %v; want 0.875, 1", s.PassAtK["1"], s.PassAtK["2"])
	}
	if g := s.PerCategory[schemas.CategoryMath]; !evalNear(g.PassRate, 0.5) || !evalNear(g.PassAtK["2"], 1) {
		t.Errorf("math: pass@1 %v pass@2 %v, want 0.5, 1", g.PassRate, g.PassAtK["2"])
	}
}

func TestEvalResumes(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	srv := llmtest.NewServer(t, refSolver(tasks, func(*schemas.Task) bool { return true }))
	cfg := evalConfig(TeacherOpenAI, srv.URL)
	out := t.TempDir()
	first := runEval(t, cfg, out)
	calls := srv.Count()
	again := runEval(t, cfg, out)
	if !again.UpToDate || again.Ran != 0 || srv.Count() != calls {
		t.Errorf("rerun: up to date %v, ran %d, calls %d -> %d; want nothing redone", again.UpToDate, again.Ran, calls, srv.Count())
	}
	if again.Summary.PassRate != first.Summary.PassRate || again.Summary.Passed != first.Summary.Passed {
		t.Errorf("rerun changed the figures: %+v vs %+v", again.Summary.Group, first.Summary.Group)
	}
	// Another teacher in the same folder is refused.
	other := evalConfig(TeacherEmpty, "")
	if _, err := Evaluate(context.Background(), other, Options{Out: out, Backend: sharedEvalBackend(t)}); !errors.Is(err, ErrConfigChanged) {
		t.Errorf("another teacher in the same folder: %v, want ErrConfigChanged", err)
	}
}

func TestEvalRetriesInfraOnRerun(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	down := true
	var mu sync.Mutex
	solve := refSolver(tasks, func(*schemas.Task) bool { return true })
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		if down {
			return llmtest.Reply{Status: 503}
		}
		return solve(c)
	})
	cfg := evalConfig(TeacherOpenAI, srv.URL)
	cfg.InfraRetries = -1
	out := t.TempDir()
	if s := runEval(t, cfg, out).Summary; s.InfraErrors != 4 || s.Rollouts != 0 {
		t.Fatalf("endpoint down: infra %d, rollouts %d; want 4, 0", s.InfraErrors, s.Rollouts)
	}
	mu.Lock()
	down = false
	mu.Unlock()
	res := runEval(t, cfg, out)
	if s := res.Summary; s.InfraErrors != 0 || s.Passed != 4 || res.Ran != 4 {
		t.Errorf("endpoint back: infra %d, passed %d, ran %d; want 0, 4, 4", s.InfraErrors, s.Passed, res.Ran)
	}
}

func TestEvalStopsOnFatalEndpointError(t *testing.T) {
	needPython(t)
	srv := llmtest.NewServer(t, llmtest.Status(401, 0))
	out := t.TempDir()
	_, err := Evaluate(context.Background(), evalConfig(TeacherOpenAI, srv.URL), Options{Out: out, Backend: sharedEvalBackend(t)})
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("401: %v, want an error naming it", err)
	}
	if lines, _ := rundir.ReadAll[bench.Result](filepath.Join(out, rundir.EvalResults)); len(lines) != 0 {
		t.Errorf("%d results journaled after a 401, want none", len(lines))
	}
}

// TestEvalReplay scores recorded trajectories in PyBench's format, matched
// to tasks by index: task 1 solved, task 2's recording ends before its
// answer, task 3 answers wrongly, task 4 was not recorded.
func TestEvalReplay(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	f := agent.NewPyBench()
	play := func(task *schemas.Task, steps int, answer string) string {
		msgs := f.Start(task, "")
		for _, st := range task.Reference.Steps[:steps] {
			msgs = append(msgs, f.Render(agent.Action{Code: st.Code}, st.Thought))
			msgs = append(msgs, schemas.Message{Role: schemas.RoleUser, Content: "[INFO]This is a Code Interpreter Message:\n(not replayed)"})
		}
		if answer != "" {
			msgs = append(msgs, f.Render(agent.Action{Finished: true, Answer: answer}, ""))
		}
		b, _ := json.Marshal(map[string]any{"index": task.Index, "messages": msgs})
		return string(b)
	}
	file := filepath.Join(t.TempDir(), "trajectory.jsonl")
	lines := []string{play(&tasks[0], 1, tasks[0].Reference.Answer), play(&tasks[1], 1, ""), play(&tasks[2], 1, "It has 7 words.")}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := evalConfig(TeacherReplay, "")
	cfg.Teacher.Replay = file
	s := runEval(t, cfg, t.TempDir()).Summary
	want := map[string]int{schemas.FailNoFinalAnswer: 1, schemas.FailCheck: 1, bench.FailNotRecorded: 1}
	if s.Passed != 1 || s.Rollouts != 4 || s.InfraErrors != 0 || !maps.Equal(s.Failures, want) {
		t.Errorf("replay: passed %d/%d, infra %d, failures %v; want 1/4, 0, %v", s.Passed, s.Rollouts, s.InfraErrors, s.Failures, want)
	}
}

func TestEvalJudgeScore(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	teacher := llmtest.NewServer(t, refSolver(tasks, func(t *schemas.Task) bool { return t.Category == schemas.CategoryData }))
	judgeSrv := llmtest.NewServer(t, llmtest.Say(`{"pass": true, "reasoning": 8, "code_quality": 6, "explanation": "fine"}`))
	cfg := evalConfig(TeacherOpenAI, teacher.URL)
	cfg.Judge = JudgeConfig{Mode: JudgeScore, LLM: llm.Config{Endpoints: []llm.Endpoint{{BaseURL: judgeSrv.URL, Model: "judge-model", KeyEnv: "SYNTH_TEST_NO_KEY"}}}}
	s := runEval(t, cfg, t.TempDir()).Summary
	j := s.Judge
	if j == nil || j.Judged != 4 || !evalNear(j.PassRate, 1) || !evalNear(j.Agreement, 0.5) || !evalNear(j.AvgReasoning, 8) || !evalNear(j.AvgCodeQuality, 6) || j.Model != "judge-model" {
		t.Fatalf("judge %+v; want 4 judged, pass 1, agreement 0.5, 8 / 6", j)
	}
	if !evalNear(s.PassRate, 0.5) {
		t.Errorf("the judge changed the unit-test pass rate: %v", s.PassRate)
	}
	if judgeSrv.Count() != 4 {
		t.Errorf("judge calls %d, want 4", judgeSrv.Count())
	}
}

func TestEvalJudgePairwise(t *testing.T) {
	needPython(t)
	// A judge that always ties; the baseline has runs of tasks 1 to 3 only,
	// so task 4 gets no judgement.
	judgeSrv := llmtest.NewServer(t, llmtest.Say(`{"winner": "tie", "explanation": "same"}`))
	cfg := evalConfig(TeacherReference, "")
	cfg.Judge = JudgeConfig{Mode: JudgePairwise, Baseline: "reference", LLM: llm.Config{Endpoints: []llm.Endpoint{{BaseURL: judgeSrv.URL, Model: "judge-model", KeyEnv: "SYNTH_TEST_NO_KEY"}}}}
	dir := t.TempDir()
	// The fixture has no reference trajectories: write them from a
	// reference eval's results.
	benchCopy := testenv.CopyTree(t, evalBench, "bench")
	cfg.Bench = benchCopy
	tasks := evalTasks(t)
	var lines []string
	for i := range tasks {
		b, _ := json.Marshal(map[string]any{"index": tasks[i].Index, "messages": agent.NewPyBench().Start(&tasks[i], "")})
		lines = append(lines, string(b))
	}
	os.WriteFile(filepath.Join(benchCopy, bench.ReferenceFile), []byte(strings.Join(lines[:3], "\n")+"\n"), 0o644)
	s := runEval(t, cfg, filepath.Join(dir, "out")).Summary
	j := s.Judge
	if j == nil || j.Mode != JudgePairwise || j.Ties != 3 || j.Errors != 1 || !evalNear(j.WinRate, 0.5) {
		t.Fatalf("pairwise judge %+v; want 3 ties, 1 error (no baseline run of task 4), win rate 0.5", j)
	}
}

func TestEvalInterruptedResumes(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	solve := refSolver(tasks, func(*schemas.Task) bool { return true })
	// Ctrl-C arrives with the first request: the rollouts in flight finish
	// and are kept, no new one starts.
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		cancel()
		return solve(c)
	})
	cfg := evalConfig(TeacherOpenAI, srv.URL)
	cfg.Concurrency = 1
	out := t.TempDir()
	_, err := Evaluate(ctx, cfg, Options{Out: out, Backend: sharedEvalBackend(t)})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted eval: %v, want context.Canceled", err)
	}
	kept, _ := rundir.ReadAll[bench.Result](filepath.Join(out, rundir.EvalResults))
	if len(kept) != 1 || !kept[0].Passed {
		t.Fatalf("%d results kept after the interrupt, want the 1 in flight, passed", len(kept))
	}
	res := runEval(t, cfg, out)
	if res.Ran != 3 || res.Summary.Passed != 4 {
		t.Errorf("resumed: ran %d, passed %d; want 3, 4", res.Ran, res.Summary.Passed)
	}
}

func TestEvalStopsAtBudget(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	srv := llmtest.NewServer(t, refSolver(tasks, func(*schemas.Task) bool { return true }))
	cfg := evalConfig(TeacherOpenAI, srv.URL)
	cfg.Concurrency = 1
	cfg.LLM.MaxTokens = 250 // task 1 spends 230 tokens; task 2 finds the budget spent at its second call
	out := t.TempDir()
	_, err := Evaluate(context.Background(), cfg, Options{Out: out, Backend: sharedEvalBackend(t)})
	if !errors.Is(err, errStopEval) || !strings.Contains(err.Error(), "budget") {
		t.Fatalf("over budget: %v, want a stop naming the budget", err)
	}
	kept, _ := rundir.ReadAll[bench.Result](filepath.Join(out, rundir.EvalResults))
	if len(kept) != 1 || kept[0].Infra {
		t.Fatalf("%d results kept (%+v), want the one finished before the budget", len(kept), kept)
	}
	cfg.LLM.MaxTokens = 0
	if res := runEval(t, cfg, out); res.Ran != 3 || res.Summary.Passed != 4 {
		t.Errorf("resumed with more budget: ran %d, passed %d; want 3, 4", res.Ran, res.Summary.Passed)
	}
}

// TestEvalRolloutCannotHideFailuresAsInfra replays a model that solves one
// task and, on every other, writes an output file whose name the verifier
// cannot take (a backslash, a byte that is not UTF-8): those rollouts are
// its failures (artifact_error), scored, and never infrastructure errors
// that eval would retry and leave out.
func TestEvalRolloutCannotHideFailuresAsInfra(t *testing.T) {
	needPython(t)
	tasks := evalTasks(t)
	f := agent.NewPyBench()
	play := func(task *schemas.Task, code []string, answer string) string {
		msgs := f.Start(task, "")
		for _, c := range code {
			msgs = append(msgs, f.Render(agent.Action{Code: c}, "step"))
			msgs = append(msgs, schemas.Message{Role: schemas.RoleUser, Content: "[INFO]This is a Code Interpreter Message:\n(not replayed)"})
		}
		msgs = append(msgs, f.Render(agent.Action{Finished: true, Answer: answer}, ""))
		b, _ := json.Marshal(map[string]any{"index": task.Index, "messages": msgs})
		return string(b)
	}
	backslash := "import os\nos.makedirs('output', exist_ok=True)\nopen('output/a\\\\b.txt', 'w').write('x')\nprint('ok')"
	notUTF8 := "import os\nos.makedirs(b'output', exist_ok=True)\nopen(b'output/\\xff.txt', 'wb').write(b'x')\nprint('ok')"
	var steps []string
	for _, st := range tasks[0].Reference.Steps {
		steps = append(steps, st.Code)
	}
	lines := []string{
		play(&tasks[0], steps, tasks[0].Reference.Answer),
		play(&tasks[1], []string{backslash}, "done"),
		play(&tasks[2], []string{notUTF8}, "7"),
		play(&tasks[3], []string{backslash, notUTF8}, "42"),
	}
	file := filepath.Join(t.TempDir(), "trajectory.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := evalConfig(TeacherReplay, "")
	cfg.Teacher.Replay = file
	s := runEval(t, cfg, t.TempDir()).Summary
	want := map[string]int{schemas.FailArtifactError: 3}
	if s.InfraErrors != 0 || s.Passed != 1 || s.Rollouts != 4 || !maps.Equal(s.Failures, want) {
		t.Errorf("hide-failures replay: passed %d/%d, infra %d %v, failures %v; want 1/4, 0, %v", s.Passed, s.Rollouts, s.InfraErrors, s.Infra, s.Failures, want)
	}
	if !evalNear(s.PassRateAllTasks, 0.25) {
		t.Errorf("pass rate over all tasks %.3f, want 0.25", s.PassRateAllTasks)
	}
}
