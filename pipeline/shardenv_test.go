package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/rundir"
	"synth/runinfo"
)

// TestShardRefusesAnotherEnvironment: a shard's code runs in the Python
// environment the plan recorded, or not at all: synth rollout --shard under
// another environment stops before any rollout, naming both, and writes no
// shard folder.
func TestShardRefusesAnotherEnvironment(t *testing.T) {
	needPython(t)
	ctx := context.Background()
	cfg := quickConfig()
	cfg.Tasks.Templates = []string{"table.sort"}
	cfg.Bench.Fraction = 0
	run := filepath.Join(t.TempDir(), "run")
	if _, err := Plan(ctx, cfg, Options{Out: run}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(run, rundir.RunInfo)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var info map[string]any
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	py, _ := info["python"].(map[string]any)
	if py == nil || py["fingerprint"] == nil || py["fingerprint"] == "" {
		t.Fatalf("the plan's run.json records no environment fingerprint: %v", info["python"])
	}
	py["fingerprint"], py["executable"] = "00000000deadbeef", "/opt/other/bin/python"
	if b, err = json.Marshal(info); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Rollout(ctx, runinfo.Shard{Index: 1, Count: 2}, ShardOptions{}, Options{Out: run})
	if !errors.Is(err, ErrEnvironmentChanged) || !strings.Contains(err.Error(), "/opt/other/bin/python") {
		t.Fatalf("a shard under another environment: err = %v, want ErrEnvironmentChanged naming the plan's interpreter", err)
	}
	if _, err := os.Stat(filepath.Join(run, rundir.ShardsDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused shard wrote %s (%v)", rundir.ShardsDir, err)
	}
}
