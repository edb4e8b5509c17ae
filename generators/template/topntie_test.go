package template

import (
	"context"
	"fmt"
	"testing"

	"synth/generators"
)

// TestTopNNotAskedAcrossATie: where the 5th and 6th largest values tie,
// "the 5 rows with the largest X" names no one set of rows, so table.topn
// writes no task; with the tie broken it writes one.
func TestTopNNotAskedAcrossATie(t *testing.T) {
	dir := t.TempDir()
	table := func(tie bool) string {
		return genRows("station,temp", 30, func(i int) string {
			v := 40 + (i*7)%30 // 40..69, each once, in no order
			if tie && v >= 64 {
				v = 70 // six rows hold the largest value: six rows for five places
			}
			return fmt.Sprintf("s%d,%d.5", i, v)
		})
	}
	for _, c := range []struct {
		name string
		tie  bool
		want bool
	}{{"tied.csv", true, false}, {"untied.csv", false, true}} {
		ins := []generators.Input{writeFile(t, dir, c.name, "csv", []byte(table(c.tie)))}
		tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.topn"}}).Generate(context.Background(), ins)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(tasks) > 0; got != c.want {
			t.Errorf("%s: a topn task %v, want %v", c.name, got, c.want)
		}
	}
}
