package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/checks/adversary"
	"synth/rollout"
	"synth/rundir"
	"synth/schemas"
)

// TestValidateDropsWhatAnAdversaryPasses: a benchmark task whose check an
// adversary passes is dropped for that adversary, through the whole proof
// (the batch verification, adversary.Score, the journaled record,
// template.Proof.Reason), and every adversary that applies to any task ran
// and has its record. The weak check wants the table to exist and not be
// sorted ascending: the reference (descending) passes, the mutant
// (ascending) and the empty rollout fail, a copy of the input passes.
func TestValidateDropsWhatAnAdversaryPasses(t *testing.T) {
	tasks, fs := proofFixture(t)
	task := tasks[0]
	var table *schemas.Check
	for i := range task.Checks {
		if task.Checks[i].SortedBy != nil {
			table = &task.Checks[i]
		}
	}
	if table == nil {
		t.Fatalf("task %s has no sort check", task.ID)
	}
	code := fmt.Sprintf("import os\np = %q\nassert os.path.exists(p), 'no table'\nvals = list(read_table(p)[%q])\nassert vals != sorted(vals), 'sorted ascending'", table.Path, table.SortedBy.Column)
	task.Checks = []schemas.Check{{Kind: schemas.CheckPython, Code: code}}

	dir := t.TempDir()
	r, fn := proofRun(t, dir, realSandbox(t))
	valid, _, _, err := r.validateBench(context.Background(), fn, []schemas.Task{task}, fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(valid) != 0 {
		t.Fatalf("task %s, which copy_input passes, was kept", task.ID)
	}
	filtered, _ := os.ReadFile(filepath.Join(dir, rundir.Filtered))
	if want := adversary.Reason("copy_input"); !strings.Contains(string(filtered), want) {
		t.Fatalf("filtered.jsonl does not drop the task as %s:\n%s", want, filtered)
	}

	recs, _ := journaled(t, dir)
	ran := map[string]*schemas.Verdict{}
	for _, tr := range recs {
		if rollout.IsAdversary(tr.Teacher.Kind) {
			ran[strings.TrimPrefix(tr.Teacher.Kind, rollout.AdversaryPrefix)] = tr.Verdict
		}
	}
	for _, name := range []string{adversary.Empty, "shotgun", "copy_input", "shadow_modules", "forged_code"} {
		if v := ran[name]; v == nil || len(v.Checks) != 1 {
			t.Errorf("adversary %s has no record with its check's result: %+v", name, v)
		}
	}
	if v := ran["copy_input"]; v == nil || !v.Passed {
		t.Errorf("copy_input's record: %+v, want passed", v)
	}
	if v := ran[adversary.Empty]; v == nil || v.Passed {
		t.Errorf("the empty rollout's record: %+v, want failed", v)
	}
}

// TestAdversaryRecord: an adversary's record carries its verdict from the
// batch; a batch that could not be verified is a sandbox_crash; and an
// adversary whose job was made but that has no verdict (it did not run) is
// an error, never a record that it failed.
func TestAdversaryRecord(t *testing.T) {
	task := &schemas.Task{ID: "t"}
	jb := job{id: "adv-shadow", task: task, teacher: adversaryProof{name: "shadow_modules"}}
	pass := []schemas.CheckResult{{Kind: "table", OK: true}}
	cases := []struct {
		name    string
		res     []adversary.Result
		err     error
		passed  bool
		failure string
		fails   bool // adversaryRecord returns an error
	}{
		{"passed", []adversary.Result{{Adversary: "empty", Applied: true, Checks: []schemas.CheckResult{{Kind: "table"}}}, {Adversary: "shadow_modules", Applied: true, Passed: true, Checks: pass}}, nil, true, "", false},
		{"failed", []adversary.Result{{Adversary: "shadow_modules", Applied: true, Checks: []schemas.CheckResult{{Kind: "table", Message: "no"}}}}, nil, false, schemas.FailCheck, false},
		{"not verified", nil, fmt.Errorf("zygote gone"), false, schemas.FailSandboxCrash, false},
		{"did not run", []adversary.Result{{Adversary: "empty", Applied: true, Passed: true, Checks: pass}}, nil, false, "", true},
		{"not applied", []adversary.Result{{Adversary: "shadow_modules"}}, nil, false, "", true},
		{"scored against its checks", []adversary.Result{{Adversary: "shadow_modules", Applied: true, Passed: false, Checks: pass}}, nil, false, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := adversaryRecord(jb, tc.res, tc.err)
			if tc.fails {
				if err == nil {
					t.Fatalf("recorded %+v, want an error", rec.Verdict)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v := rec.Verdict; v == nil || v.Passed != tc.passed || v.Failure != tc.failure {
				t.Fatalf("verdict %+v, want passed=%v failure %q", v, tc.passed, tc.failure)
			}
		})
	}
}
