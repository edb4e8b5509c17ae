package eval

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"synth/agent"
	"synth/checks/checkstest"
	"synth/llm"
	"synth/llm/llmtest"
	"synth/schemas"
)

// TestChecksThatDieFailTheModel: a model whose rollouts leave files the
// checks die on fails those tasks as check_crash. They are scored, each
// played once (never retried as infrastructure), and no infrastructure
// error is counted for them.
func TestChecksThatDieFailTheModel(t *testing.T) {
	needPython(t)
	f := agent.NewPyBench()
	var played atomic.Int64
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		if c.Turn() == 0 {
			played.Add(1)
			code := "import os\nos.makedirs('output', exist_ok=True)\nopen('output/" + checkstest.DieOn + "', 'w').write('x')"
			return llmtest.Reply{Content: f.Render(agent.Action{Code: code}, "Write the output.").Content}
		}
		return llmtest.Reply{Content: "Finished: done"}
	})
	b := checkstest.CrashingChecks(sharedEvalBackend(t))
	cfg := evalConfig(TeacherOpenAI, srv.URL)
	cfg.InfraRetries = 2
	res, err := Evaluate(context.Background(), cfg, Options{Out: t.TempDir(), Backend: b,
		LLMOptions: []llm.Option{llm.WithBackoff(time.Millisecond, 5*time.Millisecond)}})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summary
	crashed := s.Failures[schemas.FailCheckCrash]
	if crashed == 0 || int64(crashed) != played.Load() || b.Opened() != crashed {
		t.Fatalf("%d rollouts failed as check_crash, %d played, %d verified: want every rollout played and verified once (failures %v, infra %v)",
			crashed, played.Load(), b.Opened(), s.Failures, s.Infra)
	}
	if len(s.Infra) != 0 || s.InfraErrors != 0 || s.Scored != s.Tasks {
		t.Errorf("infra %v (%d errors), %d of %d tasks scored: a check that dies is the model's failure", s.Infra, s.InfraErrors, s.Scored, s.Tasks)
	}
}
