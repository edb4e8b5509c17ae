package pipeline

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"synth/agent"
	"synth/checks/checkstest"
	"synth/filters"
	"synth/llm/llmtest"
	"synth/rundir"
	"synth/sandbox"
	"synth/schemas"
)

// TestChecksThatDieFailTheRollout: a rollout that leaves files the checks
// die on (the verification cell crashes) fails as check_crash. It is the
// rollout's failure: played once, never retried as infrastructure, counted
// at the verify stage with the task failures and journaled, not lost.
func TestChecksThatDieFailTheRollout(t *testing.T) {
	needPython(t)
	b := checkstest.CrashingChecks(checkstest.Backend(t, 2))
	newSandbox = func(sandbox.Config) (sandbox.Backend, error) { return b, nil }
	t.Cleanup(func() { newSandbox = sandbox.New })
	format := agent.NewPyBench()
	var played atomic.Int64
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		if c.Turn() == 0 {
			played.Add(1)
			code := "open('output/" + checkstest.DieOn + "', 'w').write('x')"
			return llmtest.Reply{Content: format.Render(agent.Action{Code: code}, "Write the output.").Content}
		}
		return llmtest.Reply{Content: "Finished: done"}
	})
	cfg := openaiConfig(srv.URL)
	cfg.Tasks.Templates = []string{"table.sort"}
	cfg.Filters.InfraRetries = 2
	dir := filepath.Join(t.TempDir(), "out")
	sum, err := Build(context.Background(), cfg, Options{Out: dir})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	trajs, err := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if err != nil {
		t.Fatal(err)
	}
	crashed := 0
	for _, tr := range trajs {
		if tr.Verdict != nil && tr.Verdict.Failure == schemas.FailCheckCrash {
			crashed++
		}
	}
	if crashed == 0 || int64(crashed) != played.Load() || b.Opened() != crashed {
		t.Fatalf("%d rollouts journaled as check_crash, %d played, %d verified: want every rollout played and verified once, and journaled",
			crashed, played.Load(), b.Opened())
	}
	if sum.Lost != 0 || sum.Failures[schemas.FailCheckCrash] != crashed {
		t.Errorf("summary: lost %d, failures %v; want none lost and %d check_crash", sum.Lost, sum.Failures, crashed)
	}
	// The funnel drops them where it drops wrong work, at verify: every
	// rollout left the rollout stage.
	found := false
	for _, st := range sum.Stages {
		found = found || st.Stage == filters.StageRollout
		if st.Stage == filters.StageRollout && st.Out != st.In {
			t.Errorf("the rollout stage dropped %d of %d rollouts as infrastructure (%s)", st.In-st.Out, st.In, st.Note)
		}
	}
	if !found {
		t.Errorf("no %s stage in the summary's funnel %+v", filters.StageRollout, sum.Stages)
	}
}
