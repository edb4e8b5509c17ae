package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"synth/internal/manual"
)

// readmeFunnel is the funnel README.md quotes for make demo: the stages
// of the code block that starts with the header "stage in out".
func readmeFunnel(readme string) ([]StageCount, error) {
	_, block, ok := strings.Cut(readme, "```\n     stage   in  out\n")
	if !ok {
		return nil, fmt.Errorf("no funnel block (a ``` block starting with the stage/in/out header)")
	}
	block, _, ok = strings.Cut(block, "```")
	if !ok {
		return nil, fmt.Errorf("the funnel block does not end")
	}
	line := regexp.MustCompile(`^ *(\S+) +(-|\d+) +(\d+)  (.*)$`)
	var out []StageCount
	for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			return nil, fmt.Errorf("funnel line %q is not \"stage in out note\"", l)
		}
		var s StageCount
		s.Stage, s.Note = m[1], m[4]
		if m[2] != "-" {
			fmt.Sscan(m[2], &s.In)
		}
		fmt.Sscan(m[3], &s.Out)
		out = append(out, s)
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
