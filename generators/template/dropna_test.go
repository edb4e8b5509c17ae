package template

import (
	"context"
	"testing"

	"synth/generators"
)

// TestDropNAOnlyWhenRowsRemain: no dropna task whose answer is "0 rows
// remain" whatever the data: a column with no value, or a missing cell in
// every row; a table with some complete rows gets one.
func TestDropNAOnlyWhenRowsRemain(t *testing.T) {
	dir := t.TempDir()
	ins := []generators.Input{
		writeFile(t, dir, "empty_column.csv", "csv", []byte("name,score,note\na,1,\nb,,\nc,3,\nd,4,\ne,5,\nf,6,\n")),
		writeFile(t, dir, "every_row.csv", "csv", []byte("name,x,y\na,1,\nb,,2\nc,3,\nd,,4\ne,5,\nf,,6\n")),
		writeFile(t, dir, "some.csv", "csv", []byte("name,x,y\na,1,2\nb,,2\nc,3,3\nd,4,4\ne,5,\nf,6,6\n")),
	}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.dropna"}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, task := range tasks {
		got[task.Files[0].Name] = true
	}
	if got["empty_column.csv"] || got["every_row.csv"] || !got["some.csv"] {
		t.Errorf("dropna tasks on %v, want some.csv alone", got)
	}
}
