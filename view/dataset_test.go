package view

import (
	"path/filepath"
	"testing"

	"synth/dataset"
	"synth/schemas"
)

// A dataset folder without its run: a page per row, from the row alone.
func TestBuildDatasetRows(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := dataset.NewWriter(filepath.Join(dir, "data"), dataset.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rows := []schemas.Row{
		{ID: "r1", TaskID: "t1", Category: schemas.CategoryMath, Teacher: "openai:m", Turns: 1, Passed: true, FileTypes: []string{},
			Messages: []schemas.RowMessage{{Role: "user", Content: "[INFO]The data is uploaded to ./data/a.csv"}, {Role: "user", Content: "What is 2+2?"}, {Role: "assistant", Content: "Finished: 4"}}},
		{ID: "r2", TaskID: "t2", Category: schemas.CategoryText, Teacher: "openai:m", Turns: 1, FileTypes: []string{"txt"},
			Messages: []schemas.RowMessage{{Role: "user", Content: "<script>x</script>"}, {Role: "assistant", Content: "Finished: no"}}},
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	site := build(t, false, dir)
	if got := indexRows(t, site); len(got) != 2 {
		t.Fatalf("%d rows", len(got))
	}
	p := readPage(t, site, 0)
	if p.Kind != KindDataset || p.Task.Query != "What is 2+2?" || p.Task.Category != schemas.CategoryMath || p.Sides[0].verdictWord() != VerdictPassed || p.Sides[0].Turns != 1 {
		t.Errorf("page 0: %+v %+v", p.Task, p.Sides[0])
	}
	if p := readPage(t, site, 1); p.Sides[0].verdictWord() != VerdictFailed || p.Task.Query != "<script>x</script>" {
		t.Errorf("page 1: %+v %+v", p.Task, p.Sides[0])
	}
}
