package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/rundir"
)

// TestGraderInCardAndStats proves that the grader's figures reach the
// dataset card, stats.json and what synth stats prints.
func TestGraderInCardAndStats(t *testing.T) {
	dir, info := testCard(t, FormatPyBench)
	info.Tasks = &TasksCard{Writer: "template", Grader: []GraderRow{
		{Generator: "table.stat", Tasks: 4, Wrong: 12, Rejected: 11, Stale: 4, StaleRejected: 3, Unmoved: 1, Dropped: 1},
		{Generator: "llm", Tasks: 2, Wrong: 150, Rejected: 150},
	}}
	if err := WriteCard(dir, info); err != nil {
		t.Fatal(err)
	}
	card, err := os.ReadFile(filepath.Join(dir, rundir.DatasetCard))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Grader accuracy", "| table.stat | 4 | 12 | 11 (91.7%) | 4 | 3 | 1 | 1 |", "| llm | 2 | 150 | 150 (100.0%) |", "| **all** | 6 | 162 | 161 (99.4%) | 4 | 3 | 1 | 1 |"} {
		if !strings.Contains(string(card), want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
	if strings.Contains(string(card), "not measured by this build") {
		t.Errorf("the card says grader accuracy was not measured beside its figures:\n%s", card)
	}
	rep, err := ReadStats(dir, TokensSourceColumn)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Grader) != 2 || rep.Grader[0] != info.Tasks.Grader[0] {
		t.Fatalf("stats read grader %+v, want the card's", rep.Grader)
	}
	var out bytes.Buffer
	if err := WriteText(&out, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "grader accuracy") || !strings.Contains(out.String(), "11 (91.7%)") {
		t.Errorf("synth stats text lacks the grader:\n%s", out.String())
	}
}
