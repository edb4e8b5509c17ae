package checks

import (
	"strings"
	"testing"
)

// TestCaseFileNames: a case file's name is taken only as a clean relative
// path under data/ or output/, in UTF-8, without a backslash or a control
// character.
func TestCaseFileNames(t *testing.T) {
	for _, ok := range []string{"output/a.csv", "data/x/y.txt", "output/数据.csv", "output/a b.txt"} {
		if got, err := caseFileName(ok); err != nil || got != ok {
			t.Errorf("%q refused: %q, %v", ok, got, err)
		}
	}
	for _, bad := range []string{"output/a\\b.txt", "output/a\tb", "output/\xff", "/etc/passwd", "etc/passwd", "output/../data/x",
		"output//a", "./output/a", "output/a/", "data", "output/.", "../output/a"} {
		if got, err := caseFileName(bad); err == nil {
			t.Errorf("%q taken as %q", bad, got)
		}
	}
}

// TestBoundObservationsKeepWhatFits: what fits the bounds reaches the
// checks unchanged: short cells, a cell exactly at the cell bound, and the
// newest cells up to the total bound (TestBoundObservations holds the cuts).
func TestBoundObservationsKeepWhatFits(t *testing.T) {
	short := []string{"a", "bc"}
	if got := boundObservations(short); strings.Join(got, "|") != "a|bc" {
		t.Errorf("short observations changed: %q", got)
	}
	exact := strings.Repeat("x", maxCellObservation)
	if got := boundObservations([]string{exact}); got[0] != exact {
		t.Error("an observation at the bound was cut")
	}
	n := maxObservations/maxCellObservation + 3
	many := make([]string, n)
	for i := range many {
		many[i] = strings.Repeat(string(rune('a'+i%26)), maxCellObservation)
	}
	kept := 0
	for i, o := range boundObservations(many) {
		if o != "" {
			kept++
			if o != many[i] {
				t.Errorf("observation %d changed", i)
			}
		}
	}
	if kept != maxObservations/maxCellObservation {
		t.Errorf("%d observations of the cell bound's size: kept %d, want %d", n, kept, maxObservations/maxCellObservation)
	}
}
