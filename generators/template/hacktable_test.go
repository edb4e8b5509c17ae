package template

import (
	"os"
	"strings"
	"testing"

	"synth/checks/adversary"
)

// TestHackTableInDocs: docs/HACK_RESISTANCE.md holds one template ×
// adversary table in the form TestConformance writes it (which compares it
// with a fresh proof of every task, cell by cell), with a column per
// proof, a row per template, and no passing mutant or adversary.
func TestHackTableInDocs(t *testing.T) {
	doc, err := os.ReadFile(hackDoc)
	if err != nil {
		t.Fatal(err)
	}
	start, end, err := docTable(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(doc[start:end]), "\n"), "\n")
	cols := newHackTable().cols
	if want := "| template | " + strings.Join(cols, " | ") + " |"; lines[0] != want {
		t.Fatalf("header %q, want %q", lines[0], want)
	}
	if len(lines) < 3 {
		t.Fatal("the table has no rows")
	}
	for _, l := range lines[2:] {
		cells := strings.Split(strings.Trim(l, "|"), "|")
		if len(cells) != len(cols)+1 {
			t.Errorf("row %q has %d cells, want %d", l, len(cells), len(cols)+1)
		}
		if strings.Contains(l, "PASS") || strings.Contains(l, "FAIL") {
			t.Errorf("row %q: a proof let a task through", l)
		}
	}
	if strings.Contains(string(doc[end:]), "\n| template | reference |") {
		t.Error("a second template × adversary table")
	}
	if len(cols) != 2+len(adversary.Names()) {
		t.Fatalf("columns %v", cols)
	}
}
