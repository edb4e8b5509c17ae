package main

import (
	"strings"
	"testing"

	gllm "synth/generators/llm"
	"synth/pipeline"
)

func TestPrintSummaryWriterCounts(t *testing.T) {
	sum := &pipeline.Summary{Writer: &pipeline.WriterCounts{Model: "m", Stats: gllm.Stats{Drafts: 5, Kept: 2, Proven: 2, Repaired: 1, Perturbed: 1, Failed: 1,
		Dropped: map[string]int{gllm.DropTrivial: 1, gllm.DropUnparsable: 1}}}}
	var b strings.Builder
	printSummary(&b, sum)
	want := "llm writer: 5 drafts, 2 kept; 2 proven, 1 repaired; 1 also on perturbed inputs; dropped: trivial_check 1, unparsable 1; 1 failed requests (run the same command again to redo them)"
	if !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
}
