package pipeline

import (
	"path/filepath"
	"strings"
	"testing"

	"synth/bench"
	"synth/filters"
	"synth/rundir"
	"synth/schemas"
)

// TestFreshSplitSharesNothingWithTheFirst: a split over the same tasks with
// the first build's benchmark in bench.exclude leaves out every task that
// reads one of its files or asks a near-duplicate of one of its queries, so
// the new benchmark shares 0 input files and 0 near-duplicate queries with
// it, and still has tasks of its own.
func TestFreshSplitSharesNothingWithTheFirst(t *testing.T) {
	dir, _ := buildOnce(t)
	first := filepath.Join(dir, rundir.BenchDir)
	all, err := rundir.ReadAll[schemas.Task](filepath.Join(dir, rundir.Tasks))
	if err != nil {
		t.Fatal(err)
	}
	slim := make([]slimTask, len(all))
	byID := map[string]*schemas.Task{}
	for i := range all {
		slim[i] = slimTask{id: all[i].ID, meta: &all[i]}
		byID[all[i].ID] = &all[i]
	}
	whole := func(s *slimTask) (*schemas.Task, error) { return byID[s.id], nil }
	cfg := quickConfig()
	cfg.Bench.Exclude = []string{first}
	avoid, avoided, err := avoidEarlier(cfg, slim, whole)
	if err != nil {
		t.Fatal(err)
	}
	if len(avoided) != 1 || !strings.Contains(avoided[0], "content hash `") {
		t.Errorf("avoided = %q, want the first benchmark with its content hash", avoided)
	}
	earlier, err := bench.Load(first)
	if err != nil {
		t.Fatal(err)
	}
	inFirst := map[string]bool{}
	for _, e := range earlier {
		inFirst[e.ID] = true
	}
	item := func(i int) bench.Item { return bench.ItemOf(&all[i]) }
	inBench, dropped := bench.Place(len(all), item, cfg.Bench.Fraction, 99, func(i int) string { return bench.TwinKey(&all[i]) })
	decon := filters.NewDecontaminator(cfg.Filters, earlier)
	fresh := 0
	for i := range all {
		if inFirst[all[i].ID] && !avoid[i] {
			t.Errorf("task %s of the first benchmark is not avoided", all[i].ID)
		}
		if avoid[i] || dropped[i] || !inBench[i] {
			continue
		}
		fresh++
		if ok, reason, matched := decon.Check(&all[i]); !ok {
			t.Errorf("fresh benchmark task %s shares with the first: %s %s", all[i].ID, reason, matched)
		}
	}
	if fresh == 0 {
		t.Errorf("the fresh split has no benchmark task (%d tasks, %d avoided)", len(all), count(avoid))
	}
	t.Logf("%d tasks: %d avoided, %d in the fresh benchmark", len(all), count(avoid), fresh)
}
