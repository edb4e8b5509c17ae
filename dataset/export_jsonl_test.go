package dataset

import (
	"path/filepath"
	"testing"

	"synth/internal/duckdbtest"
)

func TestExportJSONL(t *testing.T) {
	duckdbtest.Need(t)
	root := t.TempDir()
	writeRows(t, filepath.Join(root, "dataset", "data"), Config{ShardRows: 4}, 10)
	shards, err := FindShards(root)
	if err != nil || len(shards) != 3 {
		t.Fatalf("FindShards: %v %v", shards, err)
	}
	out, err := ExportJSONL(filepath.Join(root, "jsonl"), shards)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || filepath.Base(out[1]) != "train-00001-of-00003.jsonl" {
		t.Fatalf("out %v", out)
	}
	rows := duckdbtest.Query(t, "SELECT count(*) AS n, count(DISTINCT id) AS ids FROM read_json("+duckdbtest.Quote(filepath.Join(root, "jsonl", "*.jsonl"))+")")
	if rows[0]["n"] != float64(10) || rows[0]["ids"] != float64(10) {
		t.Errorf("jsonl rows %v", rows[0])
	}
	if _, err := FindShards(t.TempDir()); err == nil {
		t.Error("FindShards of an empty directory: no error")
	}
}
