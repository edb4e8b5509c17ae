package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"synth/generators/writer"
	"synth/pipeline"
	"synth/runinfo"
)

func TestPrintSummaryWriterCounts(t *testing.T) {
	sum := &pipeline.Summary{Writer: &runinfo.WriterCounts{Model: "m", Stats: writer.Stats{Drafts: 5, Kept: 2, Proven: 2, Repaired: 1, Perturbed: 1, Failed: 1,
		Dropped: map[string]int{writer.DropTrivial: 1, writer.DropUnparsable: 1}}}}
	var b strings.Builder
	printSummary(&b, sum)
	want := "llm writer: 5 drafts, 2 kept; 2 proven, 1 repaired; 1 also on perturbed inputs; dropped: trivial_check 1, unparsable 1; 1 failed requests (run the same command again to redo them)"
	if !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
}

// An up-to-date run's notes (templates that became runnable) are printed.
func TestPrintSummaryNotes(t *testing.T) {
	sum := &pipeline.Summary{Out: "out", UpToDate: true, Notes: []string{"1 templates can run now: table.sort; build into a new directory"}}
	var b strings.Builder
	printSummary(&b, sum)
	if !strings.Contains(b.String(), "out is up to date") || !strings.Contains(b.String(), "note: 1 templates can run now: table.sort") {
		t.Errorf("summary lacks the note:\n%s", b.String())
	}
}

// --fileless sets tasks.fileless; without it the config's value stays.
func TestFilelessFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"--fileless"}, true}} {
		cmd := &cobra.Command{}
		var f buildFlags
		addBuildFlags(cmd, &f)
		if err := cmd.ParseFlags(tc.args); err != nil {
			t.Fatal(err)
		}
		cfg, err := resolveConfig(cmd, f)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Tasks.Fileless != tc.want {
			t.Errorf("%v: tasks.fileless %v, want %v", tc.args, cfg.Tasks.Fileless, tc.want)
		}
	}
}
