package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"synth/internal/duckdbtest"
	"synth/llm/llmtest"
	"synth/rundir"
	"synth/schemas"
)

// TestBuildDeadEndpoint: with nothing listening at the endpoint, build
// stops before its first stage (so within seconds, whatever the corpus),
// naming the endpoint, the error and the fix.
func TestBuildDeadEndpoint(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	url := llmtest.DeadURL(t)
	_, err := Build(context.Background(), openaiConfig(url), Options{Out: dir})
	if err == nil {
		t.Fatal("Build against a dead endpoint: no error")
	}
	if _, serr := os.Stat(filepath.Join(dir, rundir.Files)); serr == nil {
		t.Errorf("build collected files before checking the endpoint")
	}
	for _, s := range []string{url, "connection refused", "is the server running"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
	trajs, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if len(trajs) != 0 {
		t.Errorf("%d rollouts journaled against a dead endpoint", len(trajs))
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.DatasetDataDir)); err == nil {
		t.Errorf("a dataset was written")
	}
}

// TestBuildLosesNoRolloutToAFailingEndpoint: an endpoint that fails for a
// while and then recovers costs no rollout across two runs. The first run
// pauses, then stops with an error; the rollouts the failures cut short are
// not journaled; the second run redoes them, says how many, and only a
// third is up to date.
func TestBuildLosesNoRolloutToAFailingEndpoint(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, llmtest.Storm(8, 503, referenceSolver(t, dir)))
	cfg := openaiConfig(srv.URL)
	cfg.LLM.MaxRetries, cfg.LLM.BreakerFailures, cfg.LLM.BreakerPause = -1, 4, 10*time.Millisecond
	// One rollout at a time: the storm's 8 failures then reach the breaker
	// in a row, however the machine schedules the replies.
	cfg.Concurrency = 1

	_, err := Build(context.Background(), cfg, Options{Out: dir})
	if err == nil || !strings.Contains(err.Error(), "infrastructure failures in a row") || !strings.Contains(err.Error(), "HTTP 503") {
		t.Fatalf("first run: %v, want a stop summing up the failures", err)
	}
	first, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	for _, tr := range first {
		if tr.StopReason == schemas.StopTeacherError {
			t.Errorf("rollout %s lost to the endpoint was journaled as done: %s", tr.ID, tr.Error)
		}
	}
	lost, _ := rundir.ReadAll[rundir.LostRollout](filepath.Join(dir, rundir.Lost))
	if len(lost) == 0 {
		t.Fatal("no rollout noted as lost")
	}

	var log strings.Builder
	sum, err := Build(context.Background(), cfg, Options{Out: dir, Log: &log})
	if err != nil {
		t.Fatalf("second run: %v", err)
	}
	if sum.UpToDate || sum.Lost != 0 {
		t.Errorf("second run: up to date %v, lost %d", sum.UpToDate, sum.Lost)
	}
	if want := fmt.Sprintf("redoing %d rollouts lost", len(lost)); !strings.Contains(log.String(), want) {
		t.Errorf("second run does not say %q:\n%s", want, log.String())
	}
	all, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	seen := map[string]bool{}
	for _, tr := range all {
		if seen[tr.ID] {
			t.Errorf("rollout %s journaled twice", tr.ID)
		}
		seen[tr.ID] = true
		if !tr.Verdict.Passed {
			t.Errorf("rollout %s: %s %s", tr.ID, tr.StopReason, tr.Error)
		}
	}
	rollout := sum.Stages[len(sum.Stages)-1]
	for _, s := range sum.Stages {
		if s.Stage == "rollout" {
			rollout = s
		}
	}
	if len(all) != rollout.Out || len(all) <= len(first) {
		t.Errorf("%d rollouts journaled after two runs (%d after the first), the rollout stage made %d", len(all), len(first), rollout.Out)
	}
	if sum, err := Build(context.Background(), cfg, Options{Out: dir}); err != nil || !sum.UpToDate {
		t.Errorf("third run: up to date %v, %v", sum != nil && sum.UpToDate, err)
	}
}

// TestBuildLostRolloutsLetTheRunGoOn: a few rollouts lost past their
// retries, below the breaker's threshold, do not stop the run; they are
// counted, not journaled, and the rerun is not "up to date" while they
// remain.
func TestBuildLostRolloutsLetTheRunGoOn(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, llmtest.Storm(2, 500, referenceSolver(t, dir)))
	cfg := openaiConfig(srv.URL)
	cfg.LLM.MaxRetries = -1
	sum, err := Build(context.Background(), cfg, Options{Out: dir})
	if err != nil || sum.Lost != 2 || sum.Rows == 0 {
		t.Fatalf("first run: %v, lost %d, rows %d; want 2 lost and a dataset of the rest", err, sum.Lost, sum.Rows)
	}
	sum, err = Build(context.Background(), cfg, Options{Out: dir})
	if err != nil || sum.UpToDate || sum.Lost != 0 {
		t.Fatalf("second run: %v, up to date %v, lost %d", err, sum.UpToDate, sum.Lost)
	}
}

// toolsSolver is referenceSolver in the openai-tools format: each reference
// step is an execute_python call, and the answer a reply without one.
func toolsSolver(t *testing.T, dir string) llmtest.Script {
	pybench := referenceSolver(t, dir)
	return func(c llmtest.Call) llmtest.Reply {
		r := pybench(c)
		if _, code, ok := strings.Cut(r.Content, "```python\n"); ok {
			reply := llmtest.ToolReply(strings.TrimSuffix(code, "\n```"))
			reply.Content = "Next step."
			return reply
		}
		return llmtest.Reply{Content: strings.TrimSpace(strings.TrimPrefix(r.Content, "Finished:"))}
	}
}

// TestBuildOpenAITools: a build in the openai-tools format writes a
// non-empty dataset whose rows keep the tool calls and the tool messages
// answering them, as DuckDB reads them back.
func TestBuildOpenAITools(t *testing.T) {
	duckdbtest.Need(t)
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, toolsSolver(t, dir))
	cfg := openaiConfig(srv.URL)
	cfg.Teacher.Format = "openai-tools"
	sum, err := Build(context.Background(), cfg, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows == 0 {
		t.Fatalf("no rows: %+v", sum.Stages)
	}
	calls := srv.Calls()
	if len(calls) == 0 || calls[0].Body["tools"] == nil {
		t.Fatalf("requests do not offer the tool")
	}
	glob := duckdbtest.Quote(filepath.Join(dir, rundir.DatasetDataDir, "*.parquet"))
	rows := duckdbtest.Query(t, "SELECT count(*) AS n FROM read_parquet("+glob+")")
	if rows[0]["n"] != float64(sum.Rows) {
		t.Errorf("DuckDB reads %v rows, the build wrote %d", rows[0]["n"], sum.Rows)
	}
	msgs := duckdbtest.Query(t, "SELECT m.role AS role, m.content AS content, m.tool_call_id AS id, m.name AS tool, m.tool_calls[1].id AS call, m.tool_calls[1].function.name AS name, "+
		"m.tool_calls[1].function.arguments.code AS code FROM (SELECT unnest(messages) AS m FROM (SELECT messages FROM read_parquet("+glob+") LIMIT 1))")
	var called, answered, final bool
	for i, m := range msgs {
		switch {
		case m["role"] == "assistant" && m["call"] != nil:
			code, _ := m["code"].(string)
			called = m["name"] == "execute_python" && code != "" && !strings.HasPrefix(code, "{")
			if i+1 >= len(msgs) || msgs[i+1]["role"] != "tool" || msgs[i+1]["id"] != m["call"] || msgs[i+1]["tool"] != "execute_python" {
				t.Errorf("call %v is not answered by the next message: %v", m, msgs[min(i+1, len(msgs)-1)])
			} else {
				answered = true
			}
		case m["role"] == "assistant" && i == len(msgs)-1:
			final = m["content"] != ""
		}
	}
	if !called || !answered || !final {
		t.Errorf("row messages lack a call (%v), its tool message (%v) or a final answer (%v): %v", called, answered, final, msgs)
	}
	tools := duckdbtest.Query(t, "SELECT tools[1].function.name AS name, tools[1].function.parameters.required AS required FROM read_parquet("+glob+") LIMIT 1")
	if tools[0]["name"] != "execute_python" || fmt.Sprint(tools[0]["required"]) != "[code]" {
		t.Errorf("tools column %v", tools[0])
	}
}
