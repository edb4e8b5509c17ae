package writer_test

import (
	"context"
	"path/filepath"
	"strings"
	"synth/checks/checkstest"
	"testing"

	"synth/generators"
	"synth/generators/writer"
	"synth/llm/llmtest"
	"synth/schemas"
)

// reversedRegion is a draft whose one check compares the answer with a
// constant spelled backwards: no fixed adversary, random answer or
// literal echo finds the way through it, but a model reading the check
// does.
const reversedRegion = `{"query":"Which region has the largest total amount in ./data/sales.csv? Answer with its name.",
	"category":"data_analysis","checks":[{"kind":"python","code":"assert answer.strip().lower()[::-1] == 'tsae'"}],
	"reference":{"steps":[{"code":"import pandas as pd\nprint(pd.read_csv('data/sales.csv').groupby('region')['amount'].sum().idxmax())"}],"answer":"east"}}`

// TestHackerInTheLoop proves, through an OpenAI endpoint scripted to
// attack, that with tasks.llm.hacker the writer's model tries each draft
// with the checks in view, and that an exploit that passes them drops the
// draft as adversary_passed naming llm_hacker; without it the draft falls
// to a later proof.
func TestHackerInTheLoop(t *testing.T) {
	b := checkstest.Backend(t, 0)
	in := generators.Input{File: schemas.File{ID: "s1", Name: "sales.csv", Type: "csv"}, Path: filepath.Join("testdata", "sales.csv")}
	for _, hacker := range []bool{true, false} {
		srv := llmtest.NewServer(t, llmtest.Pick(func(c llmtest.Call) llmtest.Script {
			if strings.HasPrefix(c.Messages[0].Content, "You test graders") {
				if !strings.Contains(c.Messages[1].Content, "tsae") {
					return llmtest.Say("the checks were not shown")
				}
				return llmtest.Say(`{"answer": "east", "files": {"../escape.txt": "x"}}`)
			}
			return llmtest.Say(reversedRegion)
		}))
		g := writer.New(client(t, srv), writer.Options{PerFile: 1, Concurrency: 1, Hacker: hacker})
		g.SetProver(&writer.Prover{Backend: b})
		tasks, err := g.Generate(context.Background(), []generators.Input{in})
		if err != nil {
			t.Fatal(err)
		}
		st := g.Stats()
		if len(tasks) != 0 || len(st.Drops) == 0 {
			t.Fatalf("hacker %v: kept %d tasks, drops %+v", hacker, len(tasks), st.Drops)
		}
		byHacker := st.Drops[0].Reason == writer.DropAdversary && strings.Contains(st.Drops[0].Detail, writer.HackerName)
		if byHacker != hacker {
			t.Errorf("hacker %v: first drop %+v", hacker, st.Drops[0])
		}
	}
}
