package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrongKindOfPath: each command checks that its input is the kind of
// folder it reads, and refuses another kind naming what it found and the
// command to use; an -o inside another run's dataset or benchmark is
// refused.
func TestWrongKindOfPath(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "out")
	touch := func(parts ...string) {
		p := filepath.Join(append([]string{run}, parts...)...)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("{}\n"), 0o644)
	}
	touch("run.json")
	touch("tasks.jsonl")
	touch("dataset", "stats.json")
	touch("dataset", "README.md")
	touch("bench", "BENCHMARK.md")
	touch("bench", "tasks.jsonl")
	results := filepath.Join(dir, "results")
	os.MkdirAll(results, 0o755)
	os.WriteFile(filepath.Join(results, "eval.json"), []byte("{}"), 0o644)

	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"eval", "--bench", run, "--teacher", "empty"}, []string{"a run directory", "synth eval --bench " + filepath.Join(run, "bench")}},
		{[]string{"eval", "--bench", filepath.Join(run, "dataset"), "--teacher", "empty"}, []string{"a dataset", "synth stats"}},
		{[]string{"eval", "--bench", results, "--teacher", "empty"}, []string{"eval results", "synth eval compare"}},
		{[]string{"eval", "--bench", filepath.Join(run, "bench"), "--teacher", "empty", "-o", filepath.Join(run, "res")}, []string{"-o", "a run directory"}},
		{[]string{"stats", filepath.Join(run, "bench")}, []string{"a benchmark", "synth eval --bench"}},
		{[]string{"stats", results}, []string{"eval results", "report.md"}},
		{[]string{"build", "-o", filepath.Join(run, "dataset")}, []string{"a dataset", "write somewhere else"}},
		{[]string{"build", "-o", filepath.Join(run, "bench", "run2")}, []string{"a benchmark"}},
		{[]string{"build", "-o", filepath.Join(results, "x")}, []string{"eval results"}},
		{[]string{"eval", "compare", run}, []string{"a run directory", "not eval results"}},
	}
	for _, tc := range cases {
		out, err := runSynth(t, "", tc.args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: %v, want a usage error\n%s", tc.args, err, out)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q does not say %q", tc.args, err, w)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(run, "dataset", "run.json")); err == nil {
		t.Error("a run was built inside the dataset")
	}
}
