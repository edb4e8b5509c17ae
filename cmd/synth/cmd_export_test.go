package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"synth/dataset"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

func writeTestDataset(t *testing.T, rows int) string {
	t.Helper()
	root := t.TempDir()
	w, err := dataset.NewWriter(filepath.Join(root, "dataset", "data"), dataset.Config{ShardRows: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		r := schemas.Row{
			Messages:    []schemas.RowMessage{{Role: "user", Content: "q"}, {Role: "assistant", Content: "Finished: ok"}},
			ToolChoices: "auto", ID: fmt.Sprint("r", i), Category: schemas.CategoryMath, FileTypes: []string{}, Turns: 1, Passed: true,
		}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestExportArrow(t *testing.T) {
	root := writeTestDataset(t, 7)
	out, err := execute(t, "export", root, "--format", "arrow")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "wrote 7 rows in 3 Arrow file(s)") {
		t.Errorf("output %q", out)
	}
	for _, name := range []string{"data-00000-of-00003.arrow", "data-00002-of-00003.arrow", "dataset_info.json", "state.json"} {
		if _, err := os.Stat(filepath.Join(root, "dataset", "arrow", name)); err != nil {
			t.Error(err)
		}
	}
}

func TestExportJSONLTo(t *testing.T) {
	root := writeTestDataset(t, 4)
	dst := filepath.Join(t.TempDir(), "x")
	if _, err := execute(t, "export", filepath.Join(root, "dataset"), "--format", "jsonl", "-o", dst); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dst, "train-00001-of-00002.jsonl"))
	if err != nil || strings.Count(string(b), "\n") != 1 {
		t.Errorf("second shard: %v %q", err, b)
	}
}

// TestExportJSONLLeavesShardsReadable: by default the JSONL goes to
// dataset/jsonl, not into data/, so pandas still reads data/ as Parquet.
func TestExportJSONLLeavesShardsReadable(t *testing.T) {
	py := pyenvtest.Python(t)
	root := writeTestDataset(t, 4)
	out, err := execute(t, "export", root, "--format", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(root, "dataset", "jsonl")
	if !strings.Contains(out, "to "+want) {
		t.Errorf("export says %q, want it to name %s", out, want)
	}
	if _, err := os.Stat(filepath.Join(want, "train-00000-of-00002.jsonl")); err != nil {
		t.Error(err)
	}
	data := filepath.Join(root, "dataset", "data")
	b, err := exec.Command(py, "-c", "import pandas, sys; print(len(pandas.read_parquet(sys.argv[1])))", data).CombinedOutput()
	if err != nil || strings.TrimSpace(string(b)) != "4" {
		t.Errorf("pandas.read_parquet(%q) after the export: %v\n%s", data, err, b)
	}
}

func TestExportErrors(t *testing.T) {
	for _, args := range [][]string{{"export"}, {"export", "x"}, {"export", "x", "--format", "csv"}} {
		var ue usageError
		if _, err := execute(t, args...); !errors.As(err, &ue) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	_, err := execute(t, "export", t.TempDir(), "--format", "arrow")
	if err == nil || !strings.Contains(err.Error(), "synth build") {
		t.Errorf("a directory without shards: %v", err)
	}
	out, err := execute(t, "export", "--help")
	if err != nil || !strings.Contains(out, "load_from_disk") || !strings.Contains(out, "Examples:") {
		t.Errorf("help: %v\n%s", err, out)
	}
}

// TestExportHarbor: a benchmark (here eval's fixture) becomes Harbor task
// folders beside it; a dataset is refused, naming what it is, and so is an
// output inside the benchmark.
func TestExportHarbor(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bench")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "pipeline", "testdata", "evalbench"))); err != nil {
		t.Fatal(err)
	}
	out, err := execute(t, "export", dir, "--format", "harbor")
	if err != nil || !strings.Contains(out, "wrote 4 Harbor task folder(s) to "+dir+"-harbor") {
		t.Fatalf("export: %v\n%s", err, out)
	}
	for _, f := range []string{"task-2/task.toml", "task-2/tests/test.sh", "task-2/environment/Dockerfile", "task-2/environment/data/nums.csv"} {
		if _, err := os.Stat(filepath.Join(dir+"-harbor", f)); err != nil {
			t.Error(err)
		}
	}
	var ue usageError
	_, err = execute(t, "export", writeTestDataset(t, 1), "--format", "harbor")
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "a run directory") && !strings.Contains(err.Error(), "no benchmark") {
		t.Errorf("a dataset: %v, want a usage error", err)
	}
	os.WriteFile(filepath.Join(dir, "BENCHMARK.md"), []byte("# b\n"), 0o644)
	if _, err := execute(t, "export", dir, "--format", "harbor", "-o", filepath.Join(dir, "h")); !errors.As(err, &ue) {
		t.Errorf("an output inside the benchmark: %v, want a usage error", err)
	}
}
