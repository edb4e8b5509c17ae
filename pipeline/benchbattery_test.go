package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/generators/template"
	"synth/proof"
	"synth/rundir"
	"synth/runinfo"
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

// TestValidateBenchRecordsGraderFigures: a build that did not prove its
// tasks as it wrote them records the benchmark battery's tally as its
// grader figures (run.json, the card, synth stats) and puts them in
// tasks.report.md, before the files without a task.
func TestValidateBenchRecordsGraderFigures(t *testing.T) {
	tasks, fs := proofFixture(t)
	dir := t.TempDir()
	report := "# Tasks\n\n" + template.UntaskedHeading + "\n"
	if err := os.WriteFile(filepath.Join(dir, rundir.TasksReport), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	r, fn := proofRun(t, dir, realSandbox(t))
	r.info = &runinfo.RunInfo{}
	if _, _, _, err := r.validateBench(context.Background(), fn, tasks[:1], fs); err != nil {
		t.Fatal(err)
	}
	if len(r.info.Grader) != 1 || r.info.Grader[0].Tasks != 1 || r.info.Grader[0].Wrong == 0 {
		t.Fatalf("grader figures %+v: want the task's template with the battery it met", r.info.Grader)
	}
	b, _ := os.ReadFile(filepath.Join(dir, rundir.TasksReport))
	g := strings.Index(string(b), graderHeading)
	if g < 0 || g > strings.Index(string(b), template.UntaskedHeading) {
		t.Fatalf("tasks.report.md has no grader section before the files without a task:\n%s", b)
	}
}
