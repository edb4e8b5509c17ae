package manual

import (
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// floors reads the floor of every package docs/ARCHITECTURE.md names in
// bold under its "### Floor N" headings (**checks**, **generators/template**,
// **internal/**: the rest of internal/).
func floors(t *testing.T) map[string]int {
	doc := readPage(t, "docs/ARCHITECTURE.md")
	heading := regexp.MustCompile(`(?m)^### Floor (\d+):`)
	bold := regexp.MustCompile(`\*\*([a-z][a-z0-9/]*)\*\*`)
	at := heading.FindAllStringSubmatchIndex(doc, -1)
	if len(at) < 10 {
		t.Fatalf("docs/ARCHITECTURE.md has %d floors, want 10", len(at))
	}
	fl := map[string]int{}
	for i, h := range at {
		end := len(doc)
		if i+1 < len(at) {
			end = at[i+1][0]
		}
		if j := strings.Index(doc[h[1]:end], "\n## "); j >= 0 {
			end = h[1] + j
		}
		n, _ := strconv.Atoi(doc[h[2]:h[3]])
		for _, m := range bold.FindAllStringSubmatch(doc[h[1]:end], -1) {
			name := strings.TrimSuffix(m[1], "/")
			if _, dup := fl[name]; !dup {
				fl[name] = n
			}
		}
	}
	return fl
}

// floorOf is the floor of a package: its own, or its nearest named
// parent's (sources/local stands where sources does).
func floorOf(fl map[string]int, pkg string) (int, bool) {
	for p := pkg; p != "."; {
		if n, ok := fl[p]; ok {
			return n, true
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 0, false
}

// TestFloorsHold: no package imports one on a floor above its own, as
// docs/ARCHITECTURE.md draws them, and every package stands on a floor.
func TestFloorsHold(t *testing.T) {
	fl := floors(t)
	for _, want := range []string{"schemas", "rundir", "sandbox", "checks", "config", "pipeline", "cmd/synth", "internal"} {
		if _, ok := fl[want]; !ok {
			t.Fatalf("docs/ARCHITECTURE.md's floors do not name %s (parsed %v)", want, fl)
		}
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "synth/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var bad []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], "synth/")
		own, ok := floorOf(fl, pkg)
		if !ok {
			bad = append(bad, pkg+" stands on no floor of docs/ARCHITECTURE.md")
			continue
		}
		for _, imp := range fields[1:] {
			dep, found := strings.CutPrefix(imp, "synth/")
			if !found {
				continue
			}
			if f, ok := floorOf(fl, dep); ok && f > own {
				bad = append(bad, pkg+" (floor "+strconv.Itoa(own)+") imports "+dep+" (floor "+strconv.Itoa(f)+")")
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}
