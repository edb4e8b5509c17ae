package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/internal/manual"
)

// readmeFunnel is the funnel README.md quotes for make demo, as
// internal/manual parses it (the parser make docs-check uses too).
func readmeFunnel(readme string) ([]StageCount, error) {
	lines, ok, err := manual.Funnel(readme)
	if !ok {
		return nil, fmt.Errorf("no funnel block (a ``` block starting with the stage/in/out header)")
	}
	if err != nil {
		return nil, err
	}
	out := make([]StageCount, len(lines))
	for i, l := range lines {
		out[i] = StageCount{Stage: l.Stage, In: max(l.In, 0), Out: l.Out, Note: l.Note}
	}
	return out, nil
}

// checkReadmeFunnel compares README.md's funnel with the stages of sum, a
// build of the default config (what make demo runs).
func checkReadmeFunnel(t *testing.T, sum *Summary) {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := readmeFunnel(string(b))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	var run []StageCount
	for _, s := range sum.Stages {
		if s.Stage == "collect" {
			s.In = 0
		}
		run = append(run, s)
	}
	if fmt.Sprint(doc) != fmt.Sprint(run) {
		var b strings.Builder
		for i := range max(len(doc), len(run)) {
			var d, r StageCount
			if i < len(doc) {
				d = doc[i]
			}
			if i < len(run) {
				r = run[i]
			}
			if d != r {
				fmt.Fprintf(&b, "README: %+v\n   run: %+v\n", d, r)
			}
		}
		t.Errorf("README.md's funnel is not make demo's; rerun make demo and copy its funnel:\n%s", b.String())
	}
}

// checkDocFigures compares the figures README.md and docs/ quote from make
// demo (internal/manual's Figures: the funnel and the marked paragraphs)
// with the build in out, a build of the default config; CPU times are left
// out, since a test's build shares the machine.
func checkDocFigures(t *testing.T, out string) {
	t.Helper()
	d, err := manual.ReadDemo(out)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Stages {
		d.Stages[i].CPUSeconds = 0
	}
	pages, _ := filepath.Glob("../docs/*.md")
	for _, p := range append([]string{"../README.md"}, pages...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range manual.Figures(p, string(b), d) {
			t.Errorf("%s (rerun make demo and copy its figures; make docs-check says which)", bad)
		}
	}
}

// TestReadmeFunnelParses: README.md holds a funnel in the form synth build
// prints, every stage with its counts and note; TestDefaultBuildLooksReal
// compares it with a build of the default config.
func TestReadmeFunnelParses(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	stages, err := readmeFunnel(string(b))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range stages {
		names = append(names, s.Stage)
		if s.Note == "" || (s.Stage != "collect" && s.In == 0) || s.Out == 0 {
			t.Errorf("stage %+v lacks a count or a note", s)
		}
	}
	if got := strings.Join(names, " "); got != "collect generate split filter validate rollout filter emit bench" {
		t.Errorf("stages %s", got)
	}
}
