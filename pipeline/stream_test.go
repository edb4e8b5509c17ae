package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"synth/config"
	"synth/internal/duckdbtest"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// The stages after generate hold tasks slim and trajectories as offsets
// into their journals (rundir.Index, taskstore.go). These tests check that
// what they read back is what was written, and that a build, and a plan
// rolled out in shards and merged, write the same dataset from it.

// TestGeneratedPlanBuildsAndMergesAlike builds a generated run whose
// tasks and rollouts are all journaled (the run planbench measures), and
// rolls the same plan out in three shards and merges it: the plan holds
// every task whole, each shard tallies its own rollouts, and both write the
// same rows and funnel.
func TestGeneratedPlanBuildsAndMergesAlike(t *testing.T) {
	duckdbtest.Need(t)
	needPython(t)
	ctx := context.Background()
	const n = 300
	cfg := config.Default()
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
	tasks, _ := rundir.ReadAll[schemas.Task](filepath.Join(built, rundir.Tasks))
	plan, _ := rundir.ReadAll[schemas.Task](filepath.Join(built, rundir.Plan))
	if len(tasks) != n || !reflect.DeepEqual(plan, tasks) {
		t.Fatalf("plan.jsonl holds %d tasks, not tasks.jsonl's %d whole (first: %+v)", len(plan), len(tasks), plan[0])
	}

	if _, err := Plan(ctx, cfg, Options{Out: run}); err != nil {
		t.Fatal(err)
	}
	// Deal the journaled rollouts to the shards that own their tasks.
	const shards = 3
	trajs, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(run, rundir.Trajectories))
	perShard := map[int][]schemas.Trajectory{}
	for _, tr := range trajs {
		s := runinfo.ShardOf(tr.TaskID, shards)
		perShard[s] = append(perShard[s], tr)
	}
	for i := 1; i <= shards; i++ {
		dir := filepath.Join(run, rundir.ShardsDir, runinfo.Shard{Index: i, Count: shards}.Name())
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		j, err := rundir.OpenJournal(filepath.Join(dir, rundir.Trajectories))
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
		sum, err := Rollout(ctx, runinfo.Shard{Index: i, Count: shards}, ShardOptions{}, Options{Out: run})
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
	sameFile(t, filepath.Join(run, rundir.Filtered), filepath.Join(built, rundir.Filtered))
}

// TestSlimTasksReadBack: a slim task is its id, offset and a meta shared
// by every task with the same category, generator and files; task() and
// whole give back what was written.
func TestSlimTasksReadBack(t *testing.T) {
	p := filepath.Join(t.TempDir(), rundir.Tasks)
	j, err := rundir.OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	var written []schemas.Task
	for i := range 6 {
		tk := schemas.Task{
			ID: fmt.Sprintf("t%d", i), Category: "data_cleaning", Subcategory: "dedup", Lang: "en", Generator: "template:csv.dedup@1",
			Files: []schemas.TaskFile{{ID: fmt.Sprintf("f%d", i%2), Name: "a.csv", Type: "csv"}},
			Query: fmt.Sprintf("query %d", i), Checks: []schemas.Check{{Kind: "file", Path: "output/0.csv"}}, Outputs: []string{"output/0.csv"},
		}
		if i == 5 {
			tk.Requires = []string{"sklearn"}
		}
		written = append(written, tk)
		if err := j.Append(tk); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	r := newBuilder(quickConfig(), Options{Out: t.TempDir()})
	slim, all, _, err := r.tasks.read(p, func(t *schemas.Task) bool { return t.ID != "t1" })
	if err != nil || all != 6 || len(slim) != 5 {
		t.Fatalf("readTasks: %d of %d tasks, %v; want 5 of 6", len(slim), all, err)
	}
	defer r.tasks.close()
	if slim[0].meta != slim[1].meta || slim[0].meta == slim[2].meta || slim[1].meta == slim[4].meta {
		// t0, t2, t4 read f0; t3 and t5 read f1, but t5 requires sklearn.
		t.Errorf("metas not shared by the tasks with the same files (t0,t2,t4) and only by them")
	}
	for i, s := range slim {
		want := written[[]int{0, 2, 3, 4, 5}[i]]
		got := s.task()
		if got.ID != want.ID || got.Category != want.Category || !reflect.DeepEqual(got.Files, want.Files) || !reflect.DeepEqual(got.Requires, want.Requires) || got.Query != "" {
			t.Errorf("slim task %d = %+v, want %s's id, category, files and requires, no query", i, got, want.ID)
		}
		w, err := r.tasks.whole(&s)
		if err != nil || !reflect.DeepEqual(*w, want) {
			t.Errorf("whole(%s) = %+v, %v; want %+v", s.id, w, err, want)
		}
	}
}

// TestTaskDropsScopeByScope: dedup sees the training tasks one scope (input
// file) at a time, yet drops what one pass in the plan's order drops: the
// repeats within a file, never a task over another file.
func TestTaskDropsScopeByScope(t *testing.T) {
	p := filepath.Join(t.TempDir(), rundir.Tasks)
	j, err := rundir.OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{
		"Load the sales table, remove duplicate rows and rows with missing prices, then save the cleaned table",
		"Plot the monthly revenue of the sales table as a line chart and save it as a picture",
	}
	for i := range 12 {
		tk := schemas.Task{ID: fmt.Sprintf("t%02d", i), Category: "c", Lang: "en", Generator: "g",
			Files: []schemas.TaskFile{{ID: fmt.Sprintf("f%d", i%3), Name: "a.csv"}}, Query: queries[(i/3)%2]}
		if i >= 9 {
			tk.Query += " please" // a near duplicate: its query is read back
		}
		if err := j.Append(tk); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	r := newBuilder(quickConfig(), Options{Out: t.TempDir()})
	slim, _, _, err := r.tasks.read(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.tasks.close()
	drops, err := taskDrops(r.cfg.Filters, &r.tasks, slim, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Each file gets queries 0,1,0,1 in order (t0,t3,t6,t9 over f0, ...):
	// its first two are kept, its last two repeat them (the last nearly).
	for i := range slim {
		d, dropped := drops[int32(i)]
		if want := i >= 6; dropped != want {
			t.Errorf("task %s dropped %v (%+v), want %v", slim[i].id, dropped, d, want)
		} else if reason := []string{"duplicate_query", "near_duplicate_query"}[i/9]; dropped && (d.reason != reason || !strings.HasPrefix(d.matched, fmt.Sprintf("task t%02d", i-6))) {
			t.Errorf("task %s dropped as %q matching %q, want %s of t%02d", slim[i].id, d.reason, d.matched, reason, i-6)
		}
	}
}
