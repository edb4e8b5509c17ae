package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/proof"
	"synth/rundir"
	"synth/schemas"
)

// TestValidateBenchPlaysTheBattery: a benchmark task whose checks read an
// output's order and not its values (sorted descending) holds against its
// journaled proofs (the reference passes; the mutant, ascending, the empty
// rollout and a copy of the input fail) but not against the battery: a
// right-shape table of zeros is sorted too. The build's validate stage
// drops it as battery_passes, with the case named in filtered.jsonl;
// without the battery wired in, it is kept.
func TestValidateBenchPlaysTheBattery(t *testing.T) {
	tasks, fs := proofFixture(t)
	task := tasks[0]
	var sorted *schemas.Check
	for i := range task.Checks {
		if task.Checks[i].SortedBy != nil {
			sorted = &task.Checks[i]
		}
	}
	if sorted == nil {
		t.Fatalf("task %s has no sort check", task.ID)
	}
	task.Checks = []schemas.Check{*sorted}

	dir := t.TempDir()
	r, fn := proofRun(t, dir, realSandbox(t))
	valid, refs, _, err := r.validateBench(context.Background(), fn, []schemas.Task{task}, fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(valid) != 0 || len(refs) != 0 {
		t.Fatalf("task %s, whose sort check a table of zeros passes, was kept", task.ID)
	}
	filtered, _ := os.ReadFile(filepath.Join(dir, rundir.Filtered))
	if !strings.Contains(string(filtered), proof.DropBatteryPasses) || !strings.Contains(string(filtered), "table_") {
		t.Fatalf("filtered.jsonl does not drop the task as %s with its table case:\n%s", proof.DropBatteryPasses, filtered)
	}
}
