package pipeline

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"synth/agent"
	"synth/filters"
	"synth/generators"
	"synth/generators/template"
	"synth/proof"
	"synth/rollout"
	"synth/rundir"
	"synth/sandbox"
	"synth/schemas"
	"synth/sources/sample"
)

// countingBackend is the real sandbox, counting the sandboxes opened: play
// sandboxes (seeded by their rollout's id) apart from verification ones
// (checks.Verify's, unseeded). The cells of a play sandbox whose seed is in
// failExec fail as an infrastructure failure would.
type countingBackend struct {
	sandbox.Backend
	failExec map[int64]bool

	mu             sync.Mutex
	plays, verifys int
}

func (b *countingBackend) Open(ctx context.Context, spec sandbox.Spec) (sandbox.Sandbox, error) {
	b.mu.Lock()
	if spec.Seed == 0 {
		b.verifys++
	} else {
		b.plays++
	}
	fail := b.failExec[spec.Seed]
	b.mu.Unlock()
	sb, err := b.Backend.Open(ctx, spec)
	if err != nil || !fail {
		return sb, err
	}
	return failingExec{sb}, nil
}

type failingExec struct{ sandbox.Sandbox }

func (failingExec) Exec(context.Context, string) (sandbox.Result, error) {
	return sandbox.Result{}, errors.New("the interpreter could not be reached")
}

// proofFixture is two table.sort benchmark tasks over the built-in corpus,
// both with a mutant, the second with a broken reference (it writes
// nothing), and the files they read.
func proofFixture(t *testing.T) ([]schemas.Task, *fileSet) {
	t.Helper()
	needPython(t)
	files, err := sample.Files(1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fs := &fileSet{byID: map[string]schemas.File{}, path: map[string]string{}}
	var ins []generators.Input
	for _, f := range files {
		p := filepath.Join(dir, f.Name)
		if err := os.WriteFile(p, f.Body, 0o444); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(f.Body)
		sf := schemas.File{ID: hex.EncodeToString(sum[:]), Name: f.Name, Type: f.Type, Size: int64(len(f.Body))}
		ins = append(ins, generators.Input{File: sf, Path: p})
		fs.set(sf, p)
	}
	tasks, err := template.New(template.Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.sort"}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) < 2 {
		t.Fatalf("%d table.sort tasks over the corpus, want 2", len(tasks))
	}
	tasks = tasks[:2]
	broken := *tasks[1].Reference
	broken.Steps = []schemas.RefStep{{Thought: "Nothing.", Code: "print('done')"}}
	tasks[1].Reference = &broken
	for i := range tasks {
		if template.Mutant(&tasks[i]) == nil {
			t.Fatalf("task %s has no mutant", tasks[i].ID)
		}
	}
	return tasks, fs
}

// proofRun is a build's run over dir with b as its sandbox.
func proofRun(t *testing.T, dir string, b sandbox.Backend) (*builder, *funnel) {
	t.Helper()
	cfg := quickConfig()
	cfg.Concurrency = 2
	r := newBuilder(cfg, Options{Out: dir})
	r.backend = b
	fn, err := newFunnel(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fn.close(); r.close() })
	return r, fn
}

func realSandbox(t *testing.T) sandbox.Backend {
	t.Helper()
	b, err := sandbox.New(rollout.BackendConfig(sandbox.Config{}, 2))
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// proofIDs are the record ids of a task's reference and mutant.
func proofIDs(r *builder, task *schemas.Task) (ref, mut string) {
	format := agent.NewPyBench()
	tch := agent.NewReference(format)
	return rollout.ID(task.ID, 0, tch, format, r.cfg.Teacher), rollout.ID(task.ID, 0, mutant{tch}, format, r.cfg.Teacher)
}

// journaled reads bench_validation.jsonl back: every record by id (the
// last one journaled wins, as the index reads it), and how many times each
// id was journaled.
func journaled(t *testing.T, dir string) (map[string]*schemas.Trajectory, map[string]int) {
	t.Helper()
	recs, err := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.BenchValidation))
	if err != nil {
		t.Fatal(err)
	}
	byID, n := map[string]*schemas.Trajectory{}, map[string]int{}
	for i := range recs {
		byID[recs[i].ID] = &recs[i]
		n[recs[i].ID]++
	}
	return byID, n
}

// TestValidateVerifiesInOneBatch: a benchmark task's reference and mutant
// are played in sandboxes of their own but verified with its adversaries,
// in one verification sandbox per task; the verdicts from the batch are
// right: the reference passes, the mutant fails its checks, a task whose
// reference fails its checks is dropped. A rerun redoes only the task
// whose records are missing, and journals only those.
func TestValidateVerifiesInOneBatch(t *testing.T) {
	tasks, fs := proofFixture(t)
	dir := t.TempDir()
	b := &countingBackend{Backend: realSandbox(t)}
	r, fn := proofRun(t, dir, b)
	valid, refs, _, err := r.validateBench(context.Background(), fn, tasks, fs)
	if err != nil {
		t.Fatal(err)
	}
	// The battery (benchBattery) plays the task that held in a sandbox
	// without a rollout's seed and verifies its cases in one more.
	if b.verifys != len(tasks)+2 || b.plays != 2*len(tasks) {
		t.Fatalf("%d verification and %d play sandboxes for %d tasks with a mutant, want one verification and two plays a task, and two for the battery of the one that held", b.verifys, b.plays, len(tasks))
	}
	if len(valid) != 1 || valid[0].ID != tasks[0].ID || refs[tasks[0].ID] == nil {
		t.Fatalf("valid %d tasks, want only %s", len(valid), tasks[0].ID)
	}
	recs, n := journaled(t, dir)
	checked := func(id, what string, passed bool) {
		t.Helper()
		v := recs[id].Verdict
		switch {
		case v == nil:
			t.Fatalf("%s: no verdict", what)
		case len(v.Checks) == 0:
			t.Fatalf("%s: verdict %+v without checks", what, v)
		case v.Passed != passed || (!passed && v.Failure != schemas.FailCheck):
			t.Fatalf("%s: verdict %+v, want passed=%v", what, v, passed)
		}
	}
	goodRef, goodMut := proofIDs(r, &tasks[0])
	badRef, badMut := proofIDs(r, &tasks[1])
	checked(goodRef, "the reference", true)
	checked(goodMut, "the mutant", false)
	checked(badRef, "the broken reference", false)
	checked(badMut, "the broken task's mutant", false)
	if len(refs[tasks[0].ID].Steps) == 0 || refs[tasks[0].ID].FinalAnswer == "" {
		t.Fatalf("the reference trajectory kept is not the played one: %+v", refs[tasks[0].ID])
	}
	var advs []string
	for id, tr := range recs {
		if rollout.IsAdversary(tr.Teacher.Kind) {
			advs = append(advs, id)
			if tr.TaskID == tasks[0].ID {
				checked(id, tr.Teacher.Kind, false)
			}
		}
	}
	if len(advs) < 2*2 {
		t.Fatalf("%d adversary records for 2 tasks", len(advs))
	}
	if len(recs) != 2*2+len(advs) {
		t.Fatalf("%d records journaled, want %d", len(recs), 2*2+len(advs))
	}
	filtered, _ := os.ReadFile(filepath.Join(dir, rundir.Filtered))
	if !strings.Contains(string(filtered), tasks[1].ID) || !strings.Contains(string(filtered), proof.DropReferenceFails) {
		t.Fatalf("filtered.jsonl does not drop %s as %s:\n%s", tasks[1].ID, proof.DropReferenceFails, filtered)
	}

	// Lose the good task's mutant and one of its adversaries, as an
	// interrupt between records would: the rerun redoes that task alone.
	var lost string
	for _, id := range advs {
		if recs[id].TaskID == tasks[0].ID {
			lost = id
		}
	}
	dropLines(t, filepath.Join(dir, rundir.BenchValidation), goodMut, lost)
	b2 := &countingBackend{Backend: b.Backend}
	r2, fn2 := proofRun(t, dir, b2)
	valid, _, ran, err := r2.validateBench(context.Background(), fn2, tasks, fs)
	if err != nil {
		t.Fatal(err)
	}
	// The battery is not journaled: the rerun plays it again.
	if ran != 2 || b2.verifys != 1+2 || b2.plays != 2 {
		t.Fatalf("rerun journaled %d records with %d verification and %d play sandboxes, want 2, 3 (one for the battery's play) and 2", ran, b2.verifys, b2.plays)
	}
	if len(valid) != 1 || valid[0].ID != tasks[0].ID {
		t.Fatalf("rerun: %d valid tasks", len(valid))
	}
	recs2, n2 := journaled(t, dir)
	for id, k := range n2 {
		if k != 1 || n[id] != 1 {
			t.Fatalf("record %s journaled %d times", id, k)
		}
	}
	if len(recs2) != len(recs) {
		t.Fatalf("rerun: %d records, want %d", len(recs2), len(recs))
	}
	checked(goodMut, "the mutant, redone", false)
}

// TestValidateRedoesInfraFailures: a mutant whose sandbox fails records
// the failure without checks (it did not finish), retried first; the task's
// other proofs are still verified in its batch; the task, unproven, is
// dropped as infra_error; and the next run does the failed record again
// and keeps the task.
func TestValidateRedoesInfraFailures(t *testing.T) {
	tasks, fs := proofFixture(t)
	tasks = tasks[:1]
	dir := t.TempDir()
	real := realSandbox(t)
	r, fn := proofRun(t, dir, nil)
	refID, mutID := proofIDs(r, &tasks[0])
	b := &countingBackend{Backend: real, failExec: map[int64]bool{rollout.Seed(mutID): true}}
	r.backend = b
	valid, _, _, err := r.validateBench(context.Background(), fn, tasks, fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(valid) != 0 {
		t.Fatal("a task whose mutant could not be played was kept unproven")
	}
	if filtered, _ := os.ReadFile(filepath.Join(dir, rundir.Filtered)); !strings.Contains(string(filtered), filters.ReasonInfra) {
		t.Fatalf("filtered.jsonl does not drop the task as %s:\n%s", filters.ReasonInfra, filtered)
	}
	retries := r.cfg.Filters.Retries()
	if b.verifys != 1 || b.plays != 1+1+retries {
		t.Fatalf("%d verification and %d play sandboxes, want 1 and %d (the mutant retried %d times)", b.verifys, b.plays, 2+retries, retries)
	}
	recs, _ := journaled(t, dir)
	if v := recs[mutID].Verdict; v == nil || v.Failure != schemas.FailSandboxCrash || len(v.Checks) != 0 {
		t.Fatalf("the mutant whose interpreter failed: verdict %+v, want sandbox_crash without checks", v)
	}
	if v := recs[refID].Verdict; v == nil || !v.Passed || len(v.Checks) == 0 {
		t.Fatalf("the reference: verdict %+v, want passed", v)
	}

	b2 := &countingBackend{Backend: real}
	r2, fn2 := proofRun(t, dir, b2)
	valid, _, ran, err := r2.validateBench(context.Background(), fn2, tasks, fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(valid) != 1 {
		t.Fatal("the rerun did not keep the task it proved")
	}
	recs, n := journaled(t, dir)
	if ran != 1 || n[mutID] != 2 || n[refID] != 1 {
		t.Fatalf("rerun journaled %d records; the mutant %d times, the reference %d times: want 1, 2, 1", ran, n[mutID], n[refID])
	}
	if v := recs[mutID].Verdict; v == nil || v.Passed || v.Failure != schemas.FailCheck || len(v.Checks) == 0 {
		t.Fatalf("the mutant redone: verdict %+v, want check_failed", v)
	}
}

// dropLines rewrites a journal without the records of ids.
func dropLines(t *testing.T, path string, ids ...string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		drop := false
		for _, id := range ids {
			drop = drop || rec.ID == id
		}
		if !drop {
			keep = append(keep, sc.Text())
		}
	}
	f.Close()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
