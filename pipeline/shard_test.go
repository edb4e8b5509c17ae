package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"synth/config"
	"synth/internal/duckdbtest"
	"synth/llm/llmtest"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

func TestParseShard(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	none := env()
	for _, tc := range []struct {
		name   string
		spec   string
		shards int
		getenv func(string) string
		want   runinfo.Shard
		err    string
	}{
		{"explicit", "2/3", 0, none, runinfo.Shard{Index: 2, Count: 3}, ""},
		{"one of one", "1/1", 0, none, runinfo.Shard{Index: 1, Count: 1}, ""},
		{"zero index", "0/3", 0, none, runinfo.Shard{}, "1 <= I <= N"},
		{"index past count", "4/3", 0, none, runinfo.Shard{}, "1 <= I <= N"},
		{"no slash", "3", 0, none, runinfo.Shard{}, "want I/N"},
		{"garbage", "a/b", 0, none, runinfo.Shard{}, "want I/N"},
		{"disagrees with --shards", "1/3", 4, none, runinfo.Shard{}, "disagree"},
		{"slurm array 1-3", "auto", 0, env("SLURM_ARRAY_TASK_ID", "3", "SLURM_ARRAY_TASK_MIN", "1", "SLURM_ARRAY_TASK_COUNT", "3"), runinfo.Shard{Index: 3, Count: 3}, ""},
		{"slurm array 0-2", "auto", 0, env("SLURM_ARRAY_TASK_ID", "0", "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_COUNT", "3"), runinfo.Shard{Index: 1, Count: 3}, ""},
		{"slurm resubmitted shard", "auto", 3, env("SLURM_ARRAY_TASK_ID", "2", "SLURM_ARRAY_TASK_MIN", "2", "SLURM_ARRAY_TASK_COUNT", "1"), runinfo.Shard{Index: 2, Count: 3}, ""},
		{"slurm index outside --shards", "auto", 3, env("SLURM_ARRAY_TASK_ID", "0", "SLURM_ARRAY_TASK_COUNT", "3"), runinfo.Shard{}, "--array=1-3"},
		{"slurm without count", "auto", 0, env("SLURM_ARRAY_TASK_ID", "1"), runinfo.Shard{}, "pass --shards N"},
		{"kubernetes", "auto", 4, env("JOB_COMPLETION_INDEX", "0"), runinfo.Shard{Index: 1, Count: 4}, ""},
		{"kubernetes last", "auto", 4, env("JOB_COMPLETION_INDEX", "3"), runinfo.Shard{Index: 4, Count: 4}, ""},
		{"kubernetes past completions", "auto", 4, env("JOB_COMPLETION_INDEX", "4"), runinfo.Shard{}, "not below --shards 4"},
		{"kubernetes without --shards", "auto", 0, env("JOB_COMPLETION_INDEX", "1"), runinfo.Shard{}, "needs --shards N"},
		{"auto outside a scheduler", "auto", 3, none, runinfo.Shard{}, "pass --shard I/N"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseShard(tc.spec, tc.shards, tc.getenv)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseShard(%q, %d) = %v, %v; want an error with %q", tc.spec, tc.shards, got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseShard(%q, %d) = %v, %v; want %v", tc.spec, tc.shards, got, err, tc.want)
			}
		})
	}
}

// TestShardsDealEveryTaskOnce: each task id belongs to exactly one shard,
// and the deal does not depend on the other tasks.
func TestShardsDealEveryTaskOnce(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		counts := make([]int, n+1)
		for k := range 3000 {
			id := fmt.Sprintf("task-%d", k)
			owners := 0
			for i := 1; i <= n; i++ {
				if (runinfo.Shard{Index: i, Count: n}).Owns(id) {
					owners++
					counts[i]++
				}
			}
			if owners != 1 {
				t.Fatalf("task %s has %d owners among %d shards", id, owners, n)
			}
		}
		for i := 1; i <= n; i++ {
			if counts[i] < 3000/n/2 {
				t.Errorf("%d shards: shard %d got %d of 3000 tasks", n, i, counts[i])
			}
		}
	}
}

// shardConfig is a small build for the sharding tests.
func shardConfig() config.Config {
	cfg := quickConfig()
	cfg.Tasks.Templates = []string{"table.sort", "text."}
	cfg.Tasks.PerFile = 1
	cfg.Bench.Fraction = 0.2
	return cfg
}

// TestShardsMergeToBuildsDataset: a plan rolled out as 1 or 3 shards at once
// and merged gives the rows (ids, order, content) and the benchmark of a
// build of the same config; merge refuses missing and unfinished shards by
// name; shards write nothing outside their folder; a shard resumes. (The
// build goes on from a copy of the plan, to spare the test a second plan;
// cmd/synth's script and Slurm tests compare with a build from scratch.)
func TestShardsMergeToBuildsDataset(t *testing.T) {
	duckdbtest.Need(t)
	needPython(t)
	ctx := context.Background()
	cfg := shardConfig()
	run := filepath.Join(t.TempDir(), "run")
	if _, err := Plan(ctx, cfg, Options{Out: run}); err != nil {
		t.Fatal(err)
	}
	built := filepath.Join(t.TempDir(), "built")
	if out, err := exec.Command("cp", "-a", run, built).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	bsum, err := Build(ctx, cfg, Options{Out: built})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(built, rundir.Trajectories)); err != nil {
		t.Fatalf("the build rolled out nothing in its own directory: %v", err)
	}
	if _, err := Merge(ctx, 0, Options{Out: run}); err == nil || !strings.Contains(err.Error(), "has no shards") {
		t.Fatalf("merge before any shard: err = %v, want a refusal", err)
	}

	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d shards", n), func(t *testing.T) {
			if _, err := Merge(ctx, n, Options{Out: run}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("shard 1-of-%d is missing", n)) {
				t.Fatalf("merge before the shards: err = %v, want shard 1-of-%d named missing", err, n)
			}
			before := listing(t, run)
			var g errgroup.Group
			for i := 1; i <= n; i++ {
				g.Go(func() error {
					_, err := Rollout(ctx, runinfo.Shard{Index: i, Count: n}, ShardOptions{}, Options{Out: run})
					return err
				})
			}
			if err := g.Wait(); err != nil {
				t.Fatal(err)
			}
			if after := listing(t, run); !reflect.DeepEqual(before, after) {
				t.Fatalf("the shards wrote outside %s:\nbefore %v\nafter  %v", filepath.Join(run, "shards"), before, after)
			}

			sum, err := Merge(ctx, n, Options{Out: run})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := rowsOf(t, run), rowsOf(t, built); !reflect.DeepEqual(got, want) {
				t.Fatalf("%d shards merged to %d rows, build wrote %d; first differing: %v", n, len(got), len(want), firstDiff(got, want))
			}
			sameFile(t, filepath.Join(run, "bench", "tasks.jsonl"), filepath.Join(built, "bench", "tasks.jsonl"))
			if got, want := funnelOf(sum), funnelOf(bsum); !reflect.DeepEqual(got, want) {
				t.Fatalf("merge's funnel %v, build's %v", got, want)
			}
			if len(sum.ShardInfos) != n {
				t.Fatalf("merge gathered %d shards, want %d", len(sum.ShardInfos), n)
			}
		})
	}

	// A shard whose record says it has not finished (killed) is refused by
	// name; run again, it resumes with nothing left to do.
	sdir := filepath.Join(run, "shards", "2-of-3")
	si, err := runinfo.ReadShardInfo(sdir)
	if err != nil || si == nil {
		t.Fatalf("shard.json: %v %v", si, err)
	}
	si.Finished = time.Time{}
	if err := si.Save(sdir); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(ctx, 3, Options{Out: run}); err == nil || !strings.Contains(err.Error(), "shard 2-of-3 is unfinished") {
		t.Fatalf("merge with a killed shard: err = %v, want shard 2-of-3 named unfinished", err)
	}
	sum, err := Rollout(ctx, runinfo.Shard{Index: 2, Count: 3}, ShardOptions{}, Options{Out: run})
	if err != nil || !sum.UpToDate {
		t.Fatalf("shard 2-of-3 again: up to date %v, err %v", sum != nil && sum.UpToDate, err)
	}
	if _, err := Merge(ctx, 3, Options{Out: run}); err != nil {
		t.Fatal(err)
	}

	// A rollout is taken only from the journal of its task's shard: moved
	// to another shard's journal, it is missing; recorded for another task,
	// the journal is corrupt.
	j1, j2 := filepath.Join(run, "shards", "1-of-3", rundir.Trajectories), filepath.Join(run, "shards", "2-of-3", rundir.Trajectories)
	orig1, orig2 := readFile(t, j1), readFile(t, j2)
	first, rest, _ := strings.Cut(orig1, "\n")
	writeFile(t, j1, rest)
	writeFile(t, j2, orig2+first+"\n")
	if _, err := Merge(ctx, 3, Options{Out: run}); err == nil || !strings.Contains(err.Error(), "shard 1-of-3 lacks rollout") {
		t.Fatalf("merge with a rollout in another shard's journal: err = %v", err)
	}
	writeFile(t, j2, orig2)
	var tr schemas.Trajectory
	if err := json.Unmarshal([]byte(first), &tr); err != nil {
		t.Fatal(err)
	}
	tr.TaskID = "someone-else"
	forged, _ := json.Marshal(tr)
	writeFile(t, j1, string(forged)+"\n"+rest)
	if _, err := Merge(ctx, 3, Options{Out: run}); err == nil || !strings.Contains(err.Error(), "its journal is corrupt") {
		t.Fatalf("merge with a rollout recorded for another task: err = %v", err)
	}
	writeFile(t, j1, orig1)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// listing is every file under dir outside dir/shards, with its size and
// modification time.
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.IsDir() && fi.Name() == "shards" {
			return filepath.SkipDir
		}
		if !fi.IsDir() {
			out[p] = fmt.Sprintf("%d %s", fi.Size(), fi.ModTime())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rowsOf reads a run's dataset back with DuckDB, in file and row order.
func rowsOf(t *testing.T, dir string) []string {
	t.Helper()
	glob := duckdbtest.Quote(filepath.Join(dir, "dataset", "data", "*.parquet"))
	rows := duckdbtest.Query(t, `SELECT id, task_id, teacher, passed, turns, tokens, to_json(messages)::VARCHAR AS m
		FROM read_parquet(`+glob+`, filename = true, file_row_number = true) ORDER BY filename, file_row_number`)
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprint(r["id"], r["task_id"], r["teacher"], r["passed"], r["turns"], r["tokens"], r["m"])
	}
	if len(out) == 0 {
		t.Fatalf("%s: no rows", dir)
	}
	return out
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("row %d:\n  %.300s\n  %.300s", i, a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}

func sameFile(t *testing.T, a, b string) {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(x) != string(y) {
		t.Fatalf("%s and %s differ", a, b)
	}
}

// funnelOf is a summary's stages without their notes.
func funnelOf(s *Summary) []string {
	var out []string
	for _, st := range s.Stages {
		out = append(out, fmt.Sprintf("%s %d->%d", st.Stage, st.In, st.Out))
	}
	return out
}

// TestMergeReportsAShardsBudgetStop: each shard may spend 1/N of the
// budget; one that stops on it is named by merge, with the fix, and
// resumed with a larger budget it finishes; merge sums the costs.
func TestMergeReportsAShardsBudgetStop(t *testing.T) {
	needPython(t)
	ctx := context.Background()
	run := filepath.Join(t.TempDir(), "run")
	srv := llmtest.NewServer(t, referenceSolver(t, run))
	cfg := openaiConfig(srv.URL)
	cfg.Bench.Fraction = 0
	cfg.Tasks.PerFile = 1
	cfg.Concurrency = 1
	cfg.LLM.MaxCostUSD = 1 // $0.50 a shard: a few turns
	if _, err := Plan(ctx, cfg, Options{Out: run}); err != nil {
		t.Fatal(err)
	}
	_, err := Rollout(ctx, runinfo.Shard{Index: 1, Count: 2}, ShardOptions{}, Options{Out: run})
	if !errors.Is(err, errHalted) {
		t.Fatalf("shard 1/2 on half of $1: err = %v, want a budget stop", err)
	}
	if _, err := Rollout(ctx, runinfo.Shard{Index: 2, Count: 2}, ShardOptions{MaxCostUSD: 1000}, Options{Out: run}); err != nil {
		t.Fatal(err)
	}
	_, err = Merge(ctx, 0, Options{Out: run})
	if err == nil || !strings.Contains(err.Error(), "shard 1-of-2 is unfinished") || !strings.Contains(err.Error(), "raise llm.max_cost_usd") {
		t.Fatalf("merge: err = %v, want shard 1-of-2 named with its budget stop", err)
	}
	if _, err := Rollout(ctx, runinfo.Shard{Index: 1, Count: 2}, ShardOptions{MaxCostUSD: 1000}, Options{Out: run}); err != nil {
		t.Fatal(err)
	}
	sum, err := Merge(ctx, 0, Options{Out: run})
	if err != nil {
		t.Fatal(err)
	}
	var perShard, perTraj float64
	for _, si := range sum.ShardInfos {
		perShard += si.CostUSD
	}
	for _, s := range []string{"1-of-2", "2-of-2"} {
		trajs, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(run, "shards", s, rundir.Trajectories))
		for _, tr := range trajs {
			perTraj += tr.Usage.CostUSD
		}
	}
	if perTraj == 0 || fmt.Sprintf("%.6f", sum.CostUSD) != fmt.Sprintf("%.6f", perTraj) || fmt.Sprintf("%.6f", perShard) != fmt.Sprintf("%.6f", perTraj) {
		t.Fatalf("merge's cost $%v, the shards' $%v, their rollouts' $%v", sum.CostUSD, perShard, perTraj)
	}
}
