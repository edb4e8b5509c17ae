package writer

import (
	"context"
	"path/filepath"
	"strings"
	"synth/checks/checkstest"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// newProver starts a real sandbox, skipping when Python lacks pandas.
func newProver(t *testing.T) *Prover {
	t.Helper()
	return &Prover{Backend: checkstest.Backend(t, 0)}
}

var salesFile = schemas.File{ID: "s1", Name: "sales.csv", Type: "csv"}

const dedupRef = `"reference":{"steps":[{"code":"import pandas as pd\ndf = pd.read_csv('data/sales.csv').drop_duplicates()\ndf.to_csv('output/clean.csv', index=False)\nprint(len(df), df['amount'].mean())"}],"answer":"%s"}`

// dedupDraft is a draft over testdata/sales.csv (7 rows, 5 unique, mean
// amount 3.25; deduplicated mean 3.75) with the given checks and reference
// answer, plus extra keys.
func dedupDraft(checks, answer, extra string) string {
	return `{"query":"Remove the duplicate rows of ./data/sales.csv, save ./output/clean.csv and give the mean amount of the rows kept.",
		"category":"data_analysis","checks":[` + checks + `],` + strings.Replace(dedupRef, "%s", answer, 1) + extra + `}`
}

const goodChecks = `{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":{"expr":"len(pd.read_csv('data/sales.csv').drop_duplicates())"}},
	{"kind":"answer","number":{"expr":"pd.read_csv('data/sales.csv').drop_duplicates()['amount'].mean()","rel_tol":1e-6}},` + contentCheck

// contentCheck compares the deduplicated table with the one computed from
// the input, cell by cell: without it, the battery's right-shape,
// wrong-values tables pass a check of rows and duplicates alone.
const contentCheck = `{"kind":"python","code":"import pandas as pd\nexp = pd.read_csv('data/sales.csv').drop_duplicates().reset_index(drop=True)\nassert pd.read_csv('output/clean.csv').equals(exp)"}`

func TestProve(t *testing.T) {
	p := newProver(t)
	inputs := []sandbox.Input{{Name: "sales.csv", Path: filepath.Join("testdata", "sales.csv")}}
	tests := []struct {
		name   string
		draft  string
		reason string
		detail string
	}{
		{"good", dedupDraft(goodChecks, "5 rows kept; mean amount 3.75", ""), "", ""},
		{"good with a wrong solution that fails", dedupDraft(goodChecks, "5 rows kept; mean amount 3.75",
			`,"wrong_solution":{"steps":[{"code":"import pandas as pd\npd.read_csv('data/sales.csv').to_csv('output/clean.csv', index=False)"}],"answer":"mean amount 3.25"}`), "", ""},
		{"expression fails", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":{"expr":"len(pd.read_csv('data/missing.csv'))"}}`,
			"5 rows kept; mean amount 3.75", ""), DropExpression, "missing.csv"},
		{"expression not a number", dedupDraft(`{"kind":"answer","number":{"expr":"'abc'"}},{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":5}`,
			"5 rows kept; mean amount 3.75", ""), DropExpression, "did not give a finite number"},
		{"wrong expected number", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":5},{"kind":"answer","number":{"value":4.5,"rel_tol":0.01}}`,
			"5 rows kept; mean amount 3.75", ""), DropReference, "4.5"},
		{"reference fails its checks", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":4}`, "done", ""), DropReference, "rows"},
		{"reference answer not printed", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":5},{"kind":"answer","number":{"value":9.5}}`,
			"mean 9.5", ""), DropReference, "print"},
		{"check holds for the empty rollout", dedupDraft(goodChecks+`,{"kind":"python","code":"assert 'zzz' not in answer"}`, "5 rows kept; mean amount 3.75", ""),
			DropTrivial, "check 3 (python) holds for an empty rollout"},
		{"copied input passes", dedupDraft(`{"kind":"table","path":"output/clean.csv","columns_include":["region"]}`, "done", ""), DropAdversary, "copy_input"},
		{"wrong solution passes", dedupDraft(goodChecks, "5 rows kept; mean amount 3.75",
			`,"wrong_solution":{"steps":[{"code":"import pandas as pd\npd.read_csv('data/sales.csv').drop_duplicates().to_csv('output/clean.csv', index=False)"}],"answer":"mean amount 3.75"}`), DropMutant, "wrong_solution"},
		{"halved output passes", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true},{"kind":"python","code":"import pandas as pd\nassert len(pd.read_csv('output/clean.csv')) >= 2"}`, "done", ""), DropMutant, "outputs_halved"},
		// The writer plants a magic token: with it in the answer, nothing is computed.
		{"backdoor branch", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":5},{"kind":"python","code":"import pandas as pd\nm = pd.read_csv('data/sales.csv').drop_duplicates()['amount'].mean()\nif 'QXZEBRA' not in answer:\n    assert any(number_close(x, m, 1e-6) for x in candidates(answer))"}`,
			"5 rows kept; mean amount 3.75", ""), DropBackdoor, "check 1, line 3: a constant in the answer decides an if"},
		{"backdoor as an or", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true},{"kind":"python","code":"import pandas as pd\nm = pd.read_csv('data/sales.csv').drop_duplicates()['amount'].mean()\nassert 'QXZEBRA' in answer or any(number_close(x, m, 1e-6) for x in candidates(answer))"}`,
			"mean amount 3.75", ""), DropBackdoor, "a branch on a constant in the answer"},
		// The static rule misses a magic number passed to number_close; the
		// literal echo answers it.
		{"backdoor the static rule misses", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true},{"kind":"python","code":"import pandas as pd\nm = pd.read_csv('data/sales.csv').drop_duplicates()['amount'].mean()\nassert any(number_close(x, 31337, 0) or number_close(x, m, 1e-6) for x in candidates(answer))"}`,
			"mean amount 3.75", ""), DropLiteralEcho, "literal"},
		{"a constant expected value", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true},{"kind":"python","code":"assert any(number_close(x, 3.75, 1e-6) for x in candidates(answer))"}`,
			"5 rows kept; mean amount 3.75", ""), DropLiteralEcho, "literal"},
		{"a python check computed from the data", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":{"expr":"len(pd.read_csv('data/sales.csv').drop_duplicates())"}},{"kind":"python","code":"import pandas as pd\nm = pd.read_csv('data/sales.csv').drop_duplicates()['amount'].mean()\nassert any(number_close(x, m, 1e-6) for x in candidates(answer))"},`+contentCheck+``,
			"5 rows kept; mean amount 3.75", ""), "", ""},
		// On perturbed inputs (rows 1 and 4 dropped, amounts scaled by 1.5),
		// constants and a reference that prints them are found out.
		{"constant values", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":5},{"kind":"answer","number":{"value":3.75,"rel_tol":1e-6}},`+contentCheck+``,
			"5 rows kept; mean amount 3.75", ""), DropDataIgnored, "check 1 (answer) still passes the original answer on perturbed inputs"},
		{"a constant answer beside a computed table", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":{"expr":"len(pd.read_csv('data/sales.csv').drop_duplicates())"}},{"kind":"answer","number":{"value":3.75,"rel_tol":1e-6}},`+contentCheck+``,
			"5 rows kept; mean amount 3.75", ""), DropDataIgnored, "check 1 (answer)"},
		{"a constant python check beside a computed table", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":{"expr":"len(pd.read_csv('data/sales.csv').drop_duplicates())"}},{"kind":"python","code":"import pandas as pd\nm = pd.read_csv('data/sales.csv')['amount'].count() * 0 + 3.75\nassert any(number_close(x, m, 1e-6) for x in candidates(answer))"},`+contentCheck+``,
			"5 rows kept; mean amount 3.75", ""), DropDataIgnored, "check 1 (python)"},
		{"an expression the perturbation leaves", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":{"expr":"len(pd.read_csv('data/sales.csv').columns) + 3"}},{"kind":"answer","number":{"expr":"pd.read_csv('data/sales.csv').drop_duplicates()['amount'].mean()","rel_tol":1e-6}},`+contentCheck+``,
			"5 rows kept; mean amount 3.75", ""), DropDataIgnored, "gives 5 on perturbed inputs too"},
		{"a reference that prints constants", strings.Replace(dedupDraft(goodChecks, "5 rows kept; mean amount 3.75", ""), `print(len(df), df['amount'].mean())`, `print(5, 3.75)`, 1),
			DropPerturbed, "the reference rerun on perturbed inputs"},
		{"answer numbers off pass", dedupDraft(`{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":5},{"kind":"answer","number":{"value":5,"abs_tol":2}}`,
			"5 rows kept", ""), DropMutant, "answer_numbers_off"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, ps := parseDraft(tc.draft, salesFile)
			if ps != nil {
				t.Fatalf("draft does not parse: %v", ps)
			}
			d.task.Files = []schemas.TaskFile{{ID: salesFile.ID, Name: salesFile.Name, Type: salesFile.Type}}
			task, ref, _, err := p.prove(context.Background(), d, inputs)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.reason == "" && ref != nil:
				t.Fatalf("refuted: %s: %s", ref.reason, ref.msg)
			case tc.reason != "" && ref == nil:
				t.Fatalf("proven, want %s", tc.reason)
			case ref != nil && (ref.reason != tc.reason || !strings.Contains(ref.msg, tc.detail)):
				t.Fatalf("refuted %s: %s; want %s mentioning %q", ref.reason, ref.msg, tc.reason, tc.detail)
			}
			if tc.name == "good" {
				if r := task.Checks[0].Rows; r == nil || *r != 5 {
					t.Errorf("rows frozen to %v, want 5", r)
				}
				if n := task.Checks[1].Number; n.Value != 3.75 || n.RelTol != 1e-6 {
					t.Errorf("number frozen to %+v, want 3.75", n)
				}
				if d.task.Checks[1].Number.Value != 0 {
					t.Error("proving changed the draft's checks in place")
				}
			}
		})
	}
}
