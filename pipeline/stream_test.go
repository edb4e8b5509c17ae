package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"synth/schemas"
)

// The stages after generate hold tasks slim and trajectories as offsets
// into their journals (jindex.go, taskstore.go). These tests check that
// what they read back is what was written, and that a build, and a plan
// rolled out in shards and merged, write the same dataset from it.

func TestJournalOffsetsFindRecords(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	var offs []int64
	for i := range 5 {
		offs = append(offs, j.Offset())
		if err := j.Append(rec{N: i, S: fmt.Sprint(i * 1000)}); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	// A torn line is cut on reopening: offsets go on from the last whole record.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"n": 99, "s": "tor`)
	f.Close()
	if j, err = OpenJournal(p); err != nil {
		t.Fatal(err)
	}
	offs = append(offs, j.Offset())
	if err := j.Append(rec{N: 5, S: "5000"}); err != nil {
		t.Fatal(err)
	}
	j.Close()

	var read []int64
	err = ReadJournalAt(p, func(off int64, r rec) error {
		if r.N != len(read) {
			t.Errorf("record %d at offset %d reads as %d", len(read), off, r.N)
		}
		read = append(read, off)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(read, offs) {
		t.Fatalf("ReadJournalAt's offsets %v, Offset gave %v", read, offs)
	}
	rf, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	for i := len(offs) - 1; i >= 0; i-- { // in any order, one reader reused
		r, err := ReadRecordAt[rec](rf, offs[i], nil)
		if err != nil || r.N != i || r.S != fmt.Sprint(i*1000) {
			t.Fatalf("record at offset %d: %+v, %v; want number %d", offs[i], r, err, i)
		}
	}
}

// TestJournalIndexTakesTheLastRecordOfAnID: an id journaled twice reads
// back as its later record, as the map of whole trajectories had it.
func TestJournalIndexTakesTheLastRecordOfAnID(t *testing.T) {
	p := filepath.Join(t.TempDir(), trajJournal)
	j, err := OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []schemas.Trajectory{
		{ID: "a", FinalAnswer: "first"}, {ID: "b", FinalAnswer: "only"}, {ID: "a", FinalAnswer: "second"},
	} {
		if err := j.Append(tr); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	x, err := indexJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	if x.len() != 2 {
		t.Fatalf("%d ids indexed, want 2", x.len())
	}
	for id, want := range map[string]string{"a": "second", "b": "only"} {
		tr, err := x.load(id)
		if err != nil || tr == nil || tr.FinalAnswer != want {
			t.Fatalf("load(%s) = %+v, %v; want answer %q", id, tr, err, want)
		}
	}
	if tr, err := x.load("c"); tr != nil || err != nil {
		t.Fatalf("load of an id not journaled = %+v, %v", tr, err)
	}
	var got []string
	for _, r := range x.refs() {
		tr, _ := r.load()
		got = append(got, tr.FinalAnswer)
	}
	if want := []string{"only", "second"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("refs in file order read %v, want %v", got, want)
	}
}

// TestGeneratedPlanBuildsAndMergesAlike builds a generated run whose
// tasks and rollouts are all journaled (the run planbench measures), and
// rolls the same plan out in three shards and merges it: the plan holds
// every task whole, each shard tallies its own rollouts, and both write the
// same rows and funnel.
func TestGeneratedPlanBuildsAndMergesAlike(t *testing.T) {
	needPython(t)
	ctx := context.Background()
	const n = 300
	cfg := Default()
	cfg.Bench.Fraction = 0
	built, run := filepath.Join(t.TempDir(), "built"), filepath.Join(t.TempDir(), "run")
	for _, dir := range []string{built, run} {
		if err := WriteBenchRun(dir, n, 3); err != nil {
			t.Fatal(err)
		}
	}
	bsum, err := Build(ctx, cfg, Options{Out: built})
	if err != nil {
		t.Fatal(err)
	}
	if bsum.Rows != n*9/10 {
		t.Fatalf("build wrote %d rows, want %d (every tenth rollout fails its checks)", bsum.Rows, n*9/10)
	}
	tasks, _ := ReadAll[schemas.Task](filepath.Join(built, tasksJournal))
	plan, _ := ReadAll[schemas.Task](filepath.Join(built, planFile))
	if len(tasks) != n || !reflect.DeepEqual(plan, tasks) {
		t.Fatalf("plan.jsonl holds %d tasks, not tasks.jsonl's %d whole (first: %+v)", len(plan), len(tasks), plan[0])
	}

	if _, err := Plan(ctx, cfg, Options{Out: run}); err != nil {
		t.Fatal(err)
	}
	// Deal the journaled rollouts to the shards that own their tasks.
	const shards = 3
	trajs, _ := ReadAll[schemas.Trajectory](filepath.Join(run, trajJournal))
	perShard := map[int][]schemas.Trajectory{}
	for _, tr := range trajs {
		s := shardOf(tr.TaskID, shards)
		perShard[s] = append(perShard[s], tr)
	}
	for i := 1; i <= shards; i++ {
		dir := filepath.Join(run, shardsDir, Shard{i, shards}.Name())
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		j, err := OpenJournal(filepath.Join(dir, trajJournal))
		if err != nil {
			t.Fatal(err)
		}
		passed := 0
		for _, tr := range perShard[i] {
			if tr.Verdict.Passed {
				passed++
			}
			if err := j.Append(tr); err != nil {
				t.Fatal(err)
			}
		}
		j.Close()
		sum, err := Rollout(ctx, Shard{i, shards}, ShardOptions{}, Options{Out: run})
		if err != nil {
			t.Fatal(err)
		}
		si := sum.ShardInfos[0]
		if !sum.UpToDate || si.Tasks != len(perShard[i]) || si.Rollouts != len(perShard[i]) || si.Passed != passed {
			t.Fatalf("shard %d: up to date %v, %d tasks, %d rollouts, %d passed; want %d tasks and rollouts, %d passed",
				i, sum.UpToDate, si.Tasks, si.Rollouts, si.Passed, len(perShard[i]), passed)
		}
	}
	msum, err := Merge(ctx, shards, Options{Out: run})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rowsOf(t, run), rowsOf(t, built); !reflect.DeepEqual(got, want) {
		t.Fatalf("merge wrote %d rows, build %d; first differing: %v", len(got), len(want), firstDiff(got, want))
	}
	if got, want := funnelOf(msum), funnelOf(bsum); !reflect.DeepEqual(got, want) {
		t.Fatalf("merge's funnel %v, build's %v", got, want)
	}
	sameFile(t, filepath.Join(run, filtersLog), filepath.Join(built, filtersLog))
}
