package writer_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"synth/checks/checkstest"
	"testing"

	"synth/generators"
	"synth/generators/writer"
	"synth/llm/llmtest"
	"synth/schemas"
)

// strictMean is the strict half of every backdoored check below: the
// answer states the deduplicated mean amount.
const strictMean = "any(number_close(x, pd.read_csv('data/sales.csv').drop_duplicates()['amount'].mean(), 1e-6) for x in candidates(answer))"

// backdoored is a draft whose one python check passes the strict check or
// a backdoor of the given form.
func backdoored(cond string) string {
	code := "import pandas as pd\nw = (answer.split() or [''])[-1]\nassert " + cond + " or " + strictMean
	checks, _ := json.Marshal([]map[string]any{{"kind": "python", "code": code}})
	return `{"query":"Remove the duplicate rows of ./data/sales.csv and give the mean amount of the rows kept.",
		"category":"data_analysis","checks":` + string(checks) + `,
		"reference":{"steps":[{"code":"import pandas as pd\ndf = pd.read_csv('data/sales.csv').drop_duplicates()\nprint(df['amount'].mean())"}],"answer":"The mean amount is 3.75"}}`
}

// TestBackdooredChecksFailProof proves, through a scripted OpenAI
// endpoint, that a python check with a backdoor fails its proof whatever
// the backdoor's form: its verdict on unrelated answers, or a condition
// reading the answer that none of them drove both ways, gives it away,
// not how it is written. The strict check alone is kept.
func TestBackdooredChecksFailProof(t *testing.T) {
	b := checkstest.Backend(t, 0)
	in := generators.Input{File: schemas.File{ID: "s1", Name: "sales.csv", Type: "csv"}, Path: filepath.Join("testdata", "sales.csv")}
	forms := []struct{ name, cond string }{
		{"last word of 13 letters", "len(w) == 13"},
		{"a code point sum", "sum(map(ord, answer[-7:])) == 513"},
		{"a hash", "hash(w) % 1009 == 5"},
	}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Say(backdoored(f.cond)))
			g := writer.New(client(t, srv), writer.Options{PerFile: 1, Concurrency: 1})
			g.SetProver(&writer.Prover{Backend: b})
			tasks, err := g.Generate(context.Background(), []generators.Input{in})
			if err != nil {
				t.Fatal(err)
			}
			if len(tasks) != 0 {
				t.Fatalf("the backdoor %q was kept: %+v", f.cond, tasks[0].Checks)
			}
			st := g.Stats()
			if len(st.Drops) == 0 || st.Drops[0].Reason != writer.DropBattery && st.Drops[0].Reason != writer.DropUntested {
				t.Errorf("drops = %+v, want %s or %s", st.Drops, writer.DropBattery, writer.DropUntested)
			}
		})
	}
	t.Run("strict", func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.Say(backdoored("False")))
		g := writer.New(client(t, srv), writer.Options{PerFile: 1, Concurrency: 1})
		g.SetProver(&writer.Prover{Backend: b})
		tasks, err := g.Generate(context.Background(), []generators.Input{in})
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) != 1 {
			t.Fatalf("the strict check was dropped: %+v", g.Stats().Drops)
		}
	})
}
