package checks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// TestAnswerStatesRecomputed: a python check that computes the expected
// value from the inputs where the checks run (answer_states) passes the
// answer that states that value and fails a stale one, computed on other
// data, whatever the output printed: the table under data/ has 131 rows,
// so "153 rows" fails even beside a printout that shows 153, and "131
// rows" passes though the last cell printed only "done".
func TestAnswerStatesRecomputed(t *testing.T) {
	b := openBackend(t)
	dir := t.TempDir()
	csv := filepath.Join(dir, "t.csv")
	rows := []string{"a,b"}
	for i := range 131 {
		rows = append(rows, strings.Repeat("1", 1+i%3)+",x")
	}
	if err := os.WriteFile(csv, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chk := []schemas.Check{
		{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: 153, AbsTol: 0.001}},
		{Kind: schemas.CheckPython, Code: "import pandas as pd\ndf = pd.read_csv('data/t.csv')\nanswer_states(answer, int(len(df)), rel_tol=0, abs_tol=0.001)"},
	}
	in := []sandbox.Input{{Name: "data/t.csv", Path: csv}}
	cases := []Case{
		{Checks: chk[1:], Answer: "It has 131 rows.", Files: in, Observations: []string{"(131, 2)\n", "done\n"}},
		{Checks: chk, Answer: "It has 153 rows.", Files: in, Observations: []string{"(131, 2)\n   rownames\n0  153\n"}},
		{Checks: chk[1:], Answer: "It has 153 rows.", Files: in},
	}
	rs, err := Verify(context.Background(), b, cases)
	if err != nil {
		t.Fatal(err)
	}
	if m := FirstFailure(rs[0]); m != "" {
		t.Errorf("the right answer fails: %s", m)
	}
	for i := 1; i < 3; i++ {
		if !rs[i][len(rs[i])-1].OK && strings.Contains(rs[i][len(rs[i])-1].Message, "computed from the inputs") {
			continue
		}
		t.Errorf("case %d: the stale answer %q is not failed by the recomputed value: %+v", i, cases[i].Answer, rs[i])
	}
}
