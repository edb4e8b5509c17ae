package template

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"synth/generators"
	"synth/pyenv/pyenvtest"
)

// TestNUniqueLeavesOutNumberedNames: a column whose name holds numbers of
// its own ("Q23, 2017 vote") gets no nunique task (its answer would state
// them beside the count, which the answer check reads as a list of
// guesses); a column named without numbers gets one, and it proves.
func TestNUniqueLeavesOutNumberedNames(t *testing.T) {
	pyenvtest.Python(t)
	if !statesNumbers("Q23, 2017 vote") || statesNumbers("Q1") || statesNumbers("pm2.5") {
		t.Errorf("statesNumbers: want Q23, 2017 vote alone")
	}
	var b strings.Builder
	b.WriteString("Q23 2017 vote,region,n\n")
	for i := range 12 {
		fmt.Fprintf(&b, "%s,%s,%d\n", []string{"yes", "no", "maybe"}[i%3], []string{"North", "South", "East", "West"}[i%4], i)
	}
	dir := t.TempDir()
	ins := []generators.Input{writeFile(t, dir, "poll.csv", "csv", []byte(b.String()))}
	for seed := int64(1); seed <= 6; seed++ {
		tasks, err := New(Options{Seed: seed, Langs: []string{"en"}, Include: []string{"table.nunique"}}).Generate(context.Background(), ins)
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) == 0 {
			t.Fatalf("seed %d: no nunique task", seed)
		}
		for _, task := range tasks {
			if strings.Contains(task.Query, "2017") {
				t.Errorf("seed %d: nunique of a numbered name: %s", seed, task.Query)
			}
		}
		if seed == 1 {
			validateAll(t, tasks, inputPaths(ins))
		}
	}
}
