package filters_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/dataset"
	"synth/filters"
	"synth/internal/duckdbtest"
	"synth/schemas"
)

// TestContaminationRemovedAndRecorded plants a benchmark input file, a
// copied benchmark query and a near-duplicate query among training tasks,
// runs the filters with a funnel, emits the kept rows and reads them back
// with DuckDB: the planted tasks are gone, each drop says what it matched,
// and the row count is the funnel's final count.
func TestContaminationRemovedAndRecorded(t *testing.T) {
	duckdbtest.Need(t)
	bench := []schemas.Task{
		{ID: "bench-1", Query: "Compute the median price per region and save a bar chart of it to ./output/median.png", Files: []schemas.TaskFile{{ID: "sha-bench-sales", Name: "sales.csv"}}},
	}
	topics := []string{"revenue", "rainfall", "salaries", "inventory", "traffic", "energy use", "exam scores", "flight delays"}
	var train []schemas.Task
	for i, topic := range topics {
		train = append(train, schemas.Task{
			ID:       fmt.Sprintf("train-%d", i),
			Category: schemas.CategoryData,
			Query:    fmt.Sprintf("Load the %s table, describe its columns, and report which month had the highest %s in a sentence", topic, topic),
			Files:    []schemas.TaskFile{{ID: fmt.Sprintf("sha-%d", i), Name: "t.csv", Type: "csv"}},
		})
	}
	planted := map[string]string{
		"plant-file":  filters.ReasonBenchmarkFile,
		"plant-query": filters.ReasonBenchmarkQuery,
		"plant-near":  filters.ReasonNearDuplicateQuery,
	}
	train = append(train,
		schemas.Task{ID: "plant-file", Query: "Summarise every column of this table", Files: []schemas.TaskFile{{ID: "sha-bench-sales", Name: "s.csv"}}},
		schemas.Task{ID: "plant-query", Query: bench[0].Query, Files: []schemas.TaskFile{{ID: "sha-fresh", Name: "p.csv"}}},
		schemas.Task{ID: "plant-near", Query: train[2].Query + " please", Files: train[2].Files},
	)

	cfg := filters.Config{}
	funnel := filters.NewFunnel(filters.StageDedup, filters.StageDecon, filters.StageQuality)
	var log bytes.Buffer
	funnel.LogTo(&log)
	dedup := filters.NewDedup(cfg)
	decon := filters.NewDecontaminator(cfg, bench)

	dir := t.TempDir()
	w, err := dataset.NewWriter(dir, dataset.Config{RowGroupRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := range train {
		task := &train[i]
		if ok, reason, matched := dedup.Keep(task); !ok {
			funnel.Drop(filters.StageDedup, task.ID, reason, matched)
			continue
		}
		funnel.Pass(filters.StageDedup)
		if ok, reason, matched := decon.Check(task); !ok {
			funnel.Drop(filters.StageDecon, task.ID, reason, matched)
			continue
		}
		funnel.Pass(filters.StageDecon)
		tr := rollout(task)
		if ok, reason, detail := filters.Gate(cfg, tr); !ok {
			funnel.Drop(filters.StageQuality, tr.ID, reason, detail)
			continue
		}
		funnel.Pass(filters.StageQuality)
		if err := w.Write(dataset.RowOf(task, tr, nil)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}

	glob := duckdbtest.Quote(filepath.Join(dir, "*.parquet"))
	rows := duckdbtest.Query(t, "SELECT task_id FROM read_parquet("+glob+") ORDER BY task_id")
	if int64(len(rows)) != funnel.Final() || len(rows) != len(topics) {
		t.Errorf("%d rows, funnel final %d, want %d", len(rows), funnel.Final(), len(topics))
	}
	for _, r := range rows {
		if _, bad := planted[r["task_id"].(string)]; bad {
			t.Errorf("planted task %s reached the dataset", r["task_id"])
		}
	}

	var drops []filters.DropRecord
	sc := bufio.NewScanner(&log)
	for sc.Scan() {
		var d filters.DropRecord
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		drops = append(drops, d)
	}
	slices.SortFunc(drops, func(a, b filters.DropRecord) int { return strings.Compare(a.Item, b.Item) })
	if len(drops) != len(planted) {
		t.Fatalf("drops %+v, want the %d planted tasks", drops, len(planted))
	}
	wantMatch := map[string]string{"plant-file": "benchmark task bench-1", "plant-query": "benchmark task bench-1", "plant-near": "task train-2"}
	for _, d := range drops {
		if d.Reason != planted[d.Item] || !strings.Contains(d.Matched, wantMatch[d.Item]) {
			t.Errorf("drop %+v, want reason %s matching %q", d, planted[d.Item], wantMatch[d.Item])
		}
	}
}

// rollout is a finished trajectory of task in the pybench format.
func rollout(task *schemas.Task) *schemas.Trajectory {
	return &schemas.Trajectory{
		ID: "traj-" + task.ID, TaskID: task.ID,
		Teacher: schemas.TeacherInfo{Kind: "reference"},
		Messages: []schemas.Message{
			{Role: "system", Content: "You are an AI Agent who is proficient in solve complicated task."},
			{Role: "user", Content: "[INFO]The data is uploaded to ./data/t.csv"},
			{Role: "user", Content: task.Query},
			{Role: "assistant", Content: "Analyse: load the table.\nAction:\n```python\nimport pandas as pd\ndf = pd.read_csv('./data/t.csv')\ndf.describe()\n```"},
			{Role: "user", Content: "[INFO]This is a Code Interpreter Message:\n       month  value\ncount   12.0   12.0"},
			{Role: "assistant", Content: "Finished: the highest month is July."},
		},
		Steps:   []schemas.Step{{Code: "df.describe()", Observation: "count 12", Status: schemas.StatusOK}},
		Verdict: &schemas.Verdict{Passed: true},
	}
}
