package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/internal/duckdbtest"
	"synth/schemas"
)

func testRow(i int) schemas.Row {
	return schemas.Row{
		Messages: []schemas.RowMessage{
			{Role: "system", Content: "You are an AI Agent who is proficient in solve complicated task."},
			{Role: "user", Content: "[INFO]The data is uploaded to ./data/a.csv"},
			{Role: "user", Content: fmt.Sprintf("Remove the duplicates of a.csv (%d)", i)},
			{Role: "assistant", Content: "Analyse: ...\n```python\nprint(1)\n```"},
			{Role: "user", Content: "[INFO]This is a Code Interpreter Message:\n1"},
			{Role: "assistant", Content: "Finished: done"},
		},
		ToolChoices: "auto",
		ID:          fmt.Sprintf("traj-%04d", i),
		TaskID:      fmt.Sprintf("task-%04d", i),
		Category:    schemas.Categories[i%len(schemas.Categories)],
		Subcategory: "dedup",
		FileTypes:   []string{"csv"},
		Teacher:     "reference",
		Turns:       2,
		Tokens:      int64(100 + i),
		Passed:      i%3 != 0,
	}
}

func writeRows(t *testing.T, dir string, cfg Config, n int) []string {
	t.Helper()
	w, err := NewWriter(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := w.Write(testRow(i)); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

func TestWriterShardsAndDuckDB(t *testing.T) {
	duckdbtest.Need(t)
	dir := t.TempDir()
	paths := writeRows(t, dir, Config{ShardRows: 40, RowGroupRows: 7}, 100)
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	want := []string{"train-00000-of-00003.parquet", "train-00001-of-00003.parquet", "train-00002-of-00003.parquet"}
	if !slices.Equal(names, want) {
		t.Fatalf("shards %v, want %v", names, want)
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(tmps) > 0 {
		t.Errorf(".tmp files left: %v", tmps)
	}

	glob := duckdbtest.Quote(filepath.Join(dir, "train-*.parquet"))
	rows := duckdbtest.Query(t, "SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(passed::INT) AS passed FROM read_parquet("+glob+")")
	if rows[0]["n"] != float64(100) || rows[0]["ids"] != float64(100) || rows[0]["passed"] != float64(66) {
		t.Errorf("counts: %v", rows[0])
	}

	cols := duckdbtest.Query(t, "DESCRIBE SELECT * FROM read_parquet("+glob+")")
	var got []string
	for _, c := range cols {
		got = append(got, fmt.Sprint(c["column_name"], " ", c["column_type"]))
	}
	wantCols := []string{
		"messages STRUCT(\"role\" VARCHAR, \"content\" VARCHAR)[]",
		"tools VARCHAR",
		"tool_choices VARCHAR",
		"id VARCHAR", "task_id VARCHAR", "category VARCHAR", "subcategory VARCHAR",
		"file_types VARCHAR[]", "teacher VARCHAR", "turns INTEGER", "tokens BIGINT", "passed BOOLEAN", "verdict_class VARCHAR",
	}
	if !slices.Equal(got, wantCols) {
		t.Errorf("columns:\n got %q\nwant %q", got, wantCols)
	}

	one := duckdbtest.Query(t, "SELECT messages, tools, file_types, turns, tokens FROM read_parquet("+glob+") WHERE id = 'traj-0042'")
	if len(one) != 1 {
		t.Fatalf("traj-0042: %d rows", len(one))
	}
	msgs := one[0]["messages"].([]any)
	if len(msgs) != 6 {
		t.Fatalf("messages: %d, want 6", len(msgs))
	}
	last := msgs[5].(map[string]any)
	if last["role"] != "assistant" || last["content"] != "Finished: done" {
		t.Errorf("last message %v", last)
	}
	if one[0]["tools"] != nil || one[0]["turns"] != float64(2) || one[0]["tokens"] != float64(142) {
		t.Errorf("row: %v", one[0])
	}

	// The 3-level LIST encoding: messages (LIST) > list (repeated) > element.
	schema := duckdbtest.Query(t, "SELECT name, repetition_type FROM parquet_schema("+duckdbtest.Quote(paths[0])+")")
	var levels []string
	for _, s := range schema[1:4] {
		levels = append(levels, fmt.Sprint(s["name"], ":", s["repetition_type"]))
	}
	if !slices.Equal(levels, []string{"messages:REQUIRED", "list:REPEATED", "element:REQUIRED"}) {
		t.Errorf("messages schema %v, want the 3-level LIST", levels)
	}

	groups := duckdbtest.Query(t, "SELECT count(*) AS n FROM parquet_metadata("+glob+") WHERE column_id = 0 GROUP BY file_name ORDER BY file_name")
	// 40 rows in groups of at most 7: 6 groups; the last shard's 20 rows: 3.
	var ng []float64
	for _, g := range groups {
		ng = append(ng, g["n"].(float64))
	}
	if !slices.Equal(ng, []float64{6, 6, 3}) {
		t.Errorf("row groups per shard %v, want [6 6 3]", ng)
	}
	kv := duckdbtest.Query(t, "SELECT decode(value) AS v FROM parquet_kv_metadata("+duckdbtest.Quote(paths[0])+") WHERE decode(key) = 'huggingface'")
	if len(kv) != 1 || !strings.Contains(kv[0]["v"].(string), `"messages":[{"role":{"dtype":"string","_type":"Value"}`) {
		t.Errorf("huggingface metadata %v", kv)
	}
	codecs := duckdbtest.Query(t, "SELECT DISTINCT compression FROM parquet_metadata("+glob+")")
	if len(codecs) != 1 || codecs[0]["compression"] != "ZSTD" {
		t.Errorf("compression %v, want ZSTD", codecs)
	}
}

func TestWriterNoRows(t *testing.T) {
	dir := t.TempDir()
	paths := writeRows(t, dir, Config{}, 0)
	if len(paths) != 0 {
		t.Errorf("paths %v, want none", paths)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files written: %v", entries)
	}
}

func TestWriterReplacesEarlierShards(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, Config{ShardRows: 10}, 30)
	os.WriteFile(filepath.Join(dir, "train-00009.parquet.tmp"), []byte("torn"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("keep"), 0o644)
	writeRows(t, dir, Config{ShardRows: 10}, 15)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"notes.txt", "train-00000-of-00002.parquet", "train-00001-of-00002.parquet"}
	if !slices.Equal(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
}

func TestWriterShardBytes(t *testing.T) {
	dir := t.TempDir()
	one := rowBytes(new(testRow(0)))
	paths := writeRows(t, dir, Config{ShardBytes: 3 * one}, 10)
	if len(paths) != 4 {
		t.Errorf("%d shards, want 4 (3 rows each by bytes)", len(paths))
	}
}

func TestWriterRowGroupBytes(t *testing.T) {
	duckdbtest.Need(t)
	dir := t.TempDir()
	one := rowBytes(new(testRow(0)))
	paths := writeRows(t, dir, Config{RowGroupBytes: 4 * one}, 10)
	groups := duckdbtest.Query(t, "SELECT count(*) AS n FROM parquet_metadata("+duckdbtest.Quote(paths[0])+") WHERE column_id = 0")
	if groups[0]["n"] != float64(3) {
		t.Errorf("%v row groups, want 3 (4 rows each by bytes)", groups[0]["n"])
	}
}

func TestWriterJSONL(t *testing.T) {
	duckdbtest.Need(t)
	dir := t.TempDir()
	paths := writeRows(t, dir, Config{ShardRows: 5, JSONL: true}, 7)
	if len(paths) != 4 || !strings.HasSuffix(paths[2], "train-00000-of-00002.jsonl") {
		t.Fatalf("paths %v", paths)
	}
	rows := duckdbtest.Query(t, "SELECT count(*) AS n, max(len(messages)) AS m FROM read_json("+duckdbtest.Quote(filepath.Join(dir, "*.jsonl"))+")")
	if rows[0]["n"] != float64(7) || rows[0]["m"] != float64(6) {
		t.Errorf("jsonl: %v", rows[0])
	}
}

func TestWriterPyBenchRefusesToolCalls(t *testing.T) {
	w, err := NewWriter(t.TempDir(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	r := testRow(1)
	r.Messages[3].ToolCalls = []schemas.ToolCall{{ID: "c1", Name: "execute_python", Arguments: `{"code":"1"}`}}
	if err := w.Write(r); err == nil || !strings.Contains(err.Error(), "openai-tools") {
		t.Errorf("Write = %v, want an error naming openai-tools", err)
	}
	if _, err := w.Close(); err == nil {
		t.Error("Close after a failed write: no error")
	}
}

func TestWriterAbort(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWriter(dir, Config{ShardRows: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		w.Write(testRow(i))
	}
	w.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left after Abort: %v", entries)
	}
}

// TestWriterJSONLLeavesDataParquetOnly: with dataset.jsonl, a run's JSONL
// shards go to dataset/jsonl, so data/ holds Parquet alone (a reader that
// globs it, such as pandas.read_parquet("dataset/data"), reads no JSONL);
// JSONL an earlier synth left in data/ is swept.
func TestWriterJSONLLeavesDataParquetOnly(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "dataset", "data")
	os.MkdirAll(data, 0o755)
	os.WriteFile(filepath.Join(data, "train-00000-of-00001.jsonl"), []byte("{}\n"), 0o644)
	paths := writeRows(t, data, Config{ShardRows: 5, JSONL: true}, 7)
	if len(paths) != 4 {
		t.Fatalf("paths %v", paths)
	}
	entries, _ := os.ReadDir(data)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".parquet") {
			t.Errorf("data/ holds %s beside the Parquet shards", e.Name())
		}
	}
	for _, want := range []string{"train-00000-of-00002.jsonl", "train-00001-of-00002.jsonl"} {
		if _, err := os.Stat(filepath.Join(root, "dataset", "jsonl", want)); err != nil {
			t.Errorf("dataset/jsonl lacks %s: %v", want, err)
		}
	}
}
