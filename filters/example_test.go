package filters_test

import (
	"fmt"
	"os"

	"synth/filters"
	"synth/schemas"
)

// The pipeline's filter chain: each task is checked for duplicates and
// contamination, each trajectory passes the quality gates, and every step
// is counted in a funnel, which the dataset card renders.
func Example() {
	cfg := filters.Config{}
	bench := []schemas.Task{{ID: "b1", Query: "Plot the yearly rainfall as a bar chart and save it to ./output/rain.png"}}
	tasks := []schemas.Task{
		{ID: "t1", Query: "Sort the sales table by date and save it to ./output/sorted.csv"},
		{ID: "t2", Query: "Sort the sales table by date and save it to ./output/sorted.csv"},
		{ID: "t3", Query: "Plot the yearly rainfall as a bar chart and save it to ./output/rain.png"},
	}
	funnel := filters.NewFunnel(filters.StageDedup, filters.StageDecon, filters.StageQuality)
	dedup := filters.NewDedup(cfg)
	decon := filters.NewDecontaminator(cfg, bench)
	for i := range tasks {
		t := &tasks[i]
		if ok, reason, matched := dedup.Keep(t); !ok {
			funnel.Drop(filters.StageDedup, t.ID, reason, matched)
			continue
		}
		funnel.Pass(filters.StageDedup)
		if ok, reason, matched := decon.Check(t); !ok {
			funnel.Drop(filters.StageDecon, t.ID, reason, matched)
			continue
		}
		funnel.Pass(filters.StageDecon)
		tr := &schemas.Trajectory{ID: "r-" + t.ID, Messages: []schemas.Message{
			{Role: "user", Content: t.Query},
			{Role: "assistant", Content: "Finished: saved ./output/sorted.csv"},
		}}
		if ok, reason, detail := filters.Gate(cfg, tr); !ok {
			funnel.Drop(filters.StageQuality, tr.ID, reason, detail)
			continue
		}
		funnel.Pass(filters.StageQuality)
	}
	funnel.WriteMarkdown(os.Stdout)
	fmt.Println("rows:", funnel.Final())
	// Output:
	// | stage | in | out | dropped | reasons |
	// |---|---:|---:|---:|---|
	// | dedup | 3 | 2 | 1 | duplicate_query 1 |
	// | decontaminate | 2 | 1 | 1 | benchmark_query 1 |
	// | quality | 1 | 1 | 0 |  |
	// rows: 1
}
