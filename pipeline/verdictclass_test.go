package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"synth/dataset"
	"synth/filters"
	"synth/rundir"
	"synth/sandbox"
	"synth/schemas"
)

// flakyBackend fails every cell of the first sandbox opened for an even
// seed: its rollout ends in sandbox_crash and is played again.
type flakyBackend struct {
	sandbox.Backend
	mu     sync.Mutex
	opened map[int64]bool
}

func (b *flakyBackend) Open(ctx context.Context, spec sandbox.Spec) (sandbox.Sandbox, error) {
	b.mu.Lock()
	first := spec.Seed != 0 && spec.Seed%2 == 0 && !b.opened[spec.Seed]
	b.opened[spec.Seed] = true
	b.mu.Unlock()
	sb, err := b.Backend.Open(ctx, spec)
	if err != nil || !first {
		return sb, err
	}
	return failingExec{sb}, nil
}

// TestVerdictClassesAndTheirFilter: a rollout that passed only after an
// infrastructure failure was retried is of class retried and says what its
// failed try cost; with dataset.verdict_classes [verified] the build keeps
// only rows verified on the first try, and names the class of each row it
// leaves out.
func TestVerdictClassesAndTheirFilter(t *testing.T) {
	needPython(t)
	real, err := sandbox.New(sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { real.Close() })
	newSandbox = func(sandbox.Config) (sandbox.Backend, error) {
		return &flakyBackend{Backend: real, opened: map[int64]bool{}}, nil
	}
	t.Cleanup(func() { newSandbox = sandbox.New })
	dir := filepath.Join(t.TempDir(), "out")
	cfg := quickConfig()
	cfg.Tasks.Templates = []string{"table.sort", "table.dedup", "text."}
	cfg.Dataset.VerdictClasses = []string{schemas.VerdictVerified}
	if _, err := Build(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	trajs, err := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]schemas.Trajectory{}
	retried := 0
	for _, tr := range trajs {
		byID[tr.ID] = tr
		if tr.Attempt > 1 && tr.Verdict.Passed {
			retried++
			if tr.EarlierUsage == nil || tr.EarlierUsage.SandboxCPUMS < 0 {
				t.Errorf("retried rollout %s does not say what its failed try cost", tr.ID)
			}
		}
	}
	if retried == 0 {
		t.Fatal("no rollout passed after a retry: the flaky sandbox did not bite")
	}
	drops, err := rundir.ReadAll[filters.DropRecord](filepath.Join(dir, rundir.Filtered))
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	for _, d := range drops {
		if d.Stage != stageVerdictClass {
			continue
		}
		left++
		if tr := byID[d.Item]; d.Reason != "class_"+schemas.VerdictRetried || tr.Attempt < 2 {
			t.Errorf("rollout %s (attempt %d) left out for %q", d.Item, tr.Attempt, d.Reason)
		}
	}
	if left == 0 {
		t.Error("no retried row was left out")
	}
	shards, _ := filepath.Glob(filepath.Join(dir, rundir.DatasetDataDir, "*.parquet"))
	rows := 0
	for _, p := range shards {
		err := dataset.ReadRows(p, func(r *schemas.Row) error {
			rows++
			if r.VerdictClass != schemas.VerdictVerified || byID[r.ID].Attempt > 1 {
				t.Errorf("row %s of class %q (attempt %d) kept", r.ID, r.VerdictClass, byID[r.ID].Attempt)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if rows == 0 {
		t.Error("no row kept")
	}
	checkCostAndYield(t, dir, trajs, rows)
}

// checkCostAndYield: run.json's cost counts every try of every training
// rollout (the failed tries of the retried ones too) over the rows kept,
// and its yield ends in the rows kept and the rollouts that passed.
func checkCostAndYield(t *testing.T, dir string, trajs []schemas.Trajectory, rows int) {
	t.Helper()
	var v struct {
		Cost  *schemas.CostReport  `json:"cost"`
		Yield []schemas.YieldStage `json:"yield"`
	}
	if _, err := rundir.ReadRunInfo(dir, &v); err != nil || v.Cost == nil {
		t.Fatalf("run.json has no cost (%v)", err)
	}
	var cpuMS, tries int64
	passed := 0
	for _, tr := range trajs {
		cpuMS += tr.Usage.SandboxCPUMS
		tries++
		if tr.EarlierUsage != nil {
			cpuMS += tr.EarlierUsage.SandboxCPUMS
			tries += int64(tr.Attempt - 1)
		}
		if tr.Verdict.Passed {
			passed++
		}
	}
	c := v.Cost
	if c.Rollouts != int64(len(trajs)) || c.Attempts != tries || c.Attempts <= c.Rollouts || c.Kept != int64(rows) {
		t.Errorf("cost %+v: want %d rollouts in %d tries, %d rows", c, len(trajs), tries, rows)
	}
	if fmt.Sprintf("%.3f", c.SandboxCPUSeconds) != fmt.Sprintf("%.3f", float64(cpuMS)/1000) || c.SandboxCPUSeconds <= 0 {
		t.Errorf("sandbox CPU %.3fs, the journal's tries %.3fs", c.SandboxCPUSeconds, float64(cpuMS)/1000)
	}
	if c.PerKeptRowUSD == nil || fmt.Sprintf("%.9f", *c.PerKeptRowUSD) != fmt.Sprintf("%.9f", (c.LLMUSD+c.SandboxCPUSeconds/3600*c.CPUHourUSD)/float64(rows)) {
		t.Errorf("cost per kept row %v, want the total over %d rows: %+v", c.PerKeptRowUSD, rows, c)
	}
	steps := map[string]int64{}
	for _, y := range v.Yield {
		steps[y.Stage] = y.Count
	}
	if steps["kept"] != int64(rows) || steps["passed"] != int64(passed) || steps["files"] == 0 || steps["proven"] == 0 {
		t.Errorf("yield %+v: want %d kept, %d passed", v.Yield, rows, passed)
	}
}
