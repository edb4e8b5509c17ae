package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"synth/agent"
	"synth/config"
	"synth/llm"
	"synth/llm/llmtest"
	"synth/rundir"
	"synth/schemas"
)

// referenceSolver scripts a teacher that knows every task's reference solution: it
// looks the query up in the run's tasks.jsonl and plays the steps.
func referenceSolver(t *testing.T, dir string) llmtest.Script {
	var once sync.Once
	byQuery := map[string]*schemas.Task{}
	format := agent.NewPyBench()
	return func(c llmtest.Call) llmtest.Reply {
		once.Do(func() {
			tasks, err := rundir.ReadAll[schemas.Task](filepath.Join(dir, rundir.Tasks))
			if err != nil {
				t.Error(err)
			}
			for i := range tasks {
				byQuery[tasks[i].Query] = &tasks[i]
			}
		})
		task := byQuery[c.Query()]
		if task == nil || task.Reference == nil {
			return llmtest.Reply{Content: "Finished: I do not know."}
		}
		if k := c.Turn(); k < len(task.Reference.Steps) {
			st := task.Reference.Steps[k]
			return llmtest.Reply{Content: format.Render(agent.Action{Code: st.Code}, st.Thought).Content, PromptTokens: 100, CompletionTokens: 50}
		}
		return llmtest.Reply{Content: "Finished: " + task.Reference.Answer, PromptTokens: 100, CompletionTokens: 20}
	}
}

func openaiConfig(url string) config.Config {
	cfg := quickConfig()
	cfg.Tasks.Templates = []string{"table.sort", "table.dedup", "text."}
	cfg.Teacher.Kind = "openai"
	cfg.LLM.Endpoints = []llm.Endpoint{{BaseURL: url, Model: "teacher-1", KeyEnv: "SYNTH_TEST_NO_KEY"}}
	cfg.LLM.Prices = map[string]llm.Price{"teacher-1": {Input: 1000, Output: 1000}} // $0.10 per 100 tokens
	return cfg
}

func TestBuildWithOpenAITeacher(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, referenceSolver(t, dir))
	cfg := openaiConfig(srv.URL)
	zero := 0.0
	cfg.Teacher.Temperature = &zero
	sum, err := Build(context.Background(), cfg, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	trajs, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if len(trajs) == 0 {
		t.Fatal("no trajectories")
	}
	for _, tr := range trajs {
		if tr.Teacher.Kind != "openai" || tr.Teacher.Model != "teacher-1" {
			t.Errorf("trajectory %s teacher %+v", tr.ID, tr.Teacher)
		}
		if !tr.Verdict.Passed {
			t.Errorf("trajectory %s failed: %s %+v", tr.ID, tr.Error, tr.Verdict)
		}
		if tr.Usage.CostUSD <= 0 {
			t.Errorf("trajectory %s has no cost", tr.ID)
		}
	}
	for _, c := range srv.Calls() {
		if v, ok := c.Body["temperature"]; !ok || v != 0.0 {
			t.Fatalf("request %d: temperature %v (present %v), want 0 sent", c.N, v, ok)
		}
	}
	if len(sum.Shards) == 0 {
		t.Fatal("no dataset written")
	}

	// A rerun answers from the cache and the journals: no request.
	n := srv.Count()
	if _, err := Build(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	if srv.Count() != n {
		t.Fatalf("the rerun sent %d requests", srv.Count()-n)
	}
}

func TestBuildStopsAtBudgetAndResumes(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, referenceSolver(t, dir))
	cfg := openaiConfig(srv.URL)
	cfg.Concurrency = 1
	cfg.LLM.MaxCostUSD = 0.5 // a few turns
	_, err := Build(context.Background(), cfg, Options{Out: dir})
	if err == nil || !errors.Is(err, errHalted) || !strings.Contains(err.Error(), "raise llm.max_cost_usd") {
		t.Fatalf("err = %v, want a budget stop that says how to continue", err)
	}
	partial, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	for _, tr := range partial {
		if tr.StopReason == schemas.StopBudget {
			t.Errorf("trajectory %s cut by the budget was journaled; it must be redone", tr.ID)
		}
	}
	cfg.LLM.MaxCostUSD = 1000
	if _, err := Build(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatalf("resume with a larger budget: %v", err)
	}
	all, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if len(all) <= len(partial) {
		t.Fatalf("resume added nothing: %d then %d", len(partial), len(all))
	}
}

func TestBuildStopsOnBadKey(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, llmtest.Status(401, 0))
	_, err := Build(context.Background(), openaiConfig(srv.URL), Options{Out: dir})
	if err == nil || !strings.Contains(err.Error(), srv.URL) || !strings.Contains(err.Error(), "401") {
		t.Fatalf("err = %v, want a stop naming the endpoint and the status", err)
	}
	trajs, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if len(trajs) != 0 {
		t.Fatalf("%d rollouts journaled after a 401; they must be redone once the key is fixed", len(trajs))
	}
	// Rollouts already in flight may each have asked once; none asks twice.
	seen := map[string]bool{}
	for _, c := range srv.Calls() {
		if c.Turn() != 0 || seen[c.Query()] {
			t.Fatalf("request %d repeats a rollout's request after a 401: it must not be retried", c.N)
		}
		seen[c.Query()] = true
	}

}
