package llm_test

import (
	"context"
	"maps"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"synth/generators"
	genllm "synth/generators/llm"
	"synth/llm"
	"synth/llm/llmtest"
	"synth/schemas"
)

var csvFile = generators.Input{File: schemas.File{ID: "abc123", Name: "sales.csv", Type: "csv", Size: 120,
	Preview: &schemas.Preview{Columns: []schemas.Column{{Name: "region", DType: "string"}, {Name: "amount", DType: "float"}},
		Rows: 4, Head: "region,amount\nnorth,1.5\nsouth,2.5"}}}

func good(query string) string {
	b, _ := json.Marshal(map[string]any{
		"query": query, "category": "data_analysis", "subcategory": "data_cleaning",
		"outputs": []string{"output/clean.csv"},
		"checks":  []map[string]any{{"kind": "table", "path": "output/clean.csv", "no_duplicates": true, "columns_include": []string{"region"}}},
		"reference": map[string]any{"steps": []map[string]string{{"code": "import pandas as pd\npd.read_csv('data/sales.csv').drop_duplicates().to_csv('output/clean.csv', index=False)"}},
			"answer": "Saved output/clean.csv."},
	})
	return "```json\n" + string(b) + "\n```"
}

func client(t *testing.T, srv *llmtest.Server) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{Endpoints: []llm.Endpoint{{BaseURL: srv.URL, Model: "writer-m", KeyEnv: "NO_SUCH_KEY_ENV"}}, MaxRetries: 1},
		llm.WithBackoff(time.Millisecond, 2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func isCritic(c llmtest.Call) bool { return strings.HasPrefix(c.Messages[0].Content, "You review") }

func TestGenerate(t *testing.T) {
	q1 := "Remove the duplicate rows of ./data/sales.csv and save the result to ./output/clean.csv."
	q2 := "Sort ./data/sales.csv by amount descending and save the sorted table as ./output/clean.csv for the report."
	tests := []struct {
		name    string
		script  llmtest.Script
		opts    genllm.Options
		kept    int
		stats   genllm.Stats
		checkFn func(t *testing.T, calls []llmtest.Call, tasks []schemas.Task)
	}{
		{
			name: "valid at once", script: llmtest.Texts(good(q1)), opts: genllm.Options{PerFile: 1}, kept: 1,
			stats: genllm.Stats{Drafts: 1, Kept: 1},
			checkFn: func(t *testing.T, calls []llmtest.Call, tasks []schemas.Task) {
				u := calls[0].Messages[1].Content
				for _, s := range []string{"./data/sales.csv", "region (string)", "north,1.5", "Keywords", "data_analysis"} {
					if !strings.Contains(u, s) {
						t.Errorf("prompt lacks %q:\n%s", s, u)
					}
				}
				tk := tasks[0]
				if tk.Query != q1 || tk.Category != schemas.CategoryData || tk.Lang != "en" || tk.Generator != "llm:writer-m" ||
					len(tk.Files) != 1 || tk.Files[0].Name != "sales.csv" || tk.Outputs[0] != "output/clean.csv" || !strings.HasPrefix(tk.ID, "llm-") {
					t.Errorf("task = %+v", tk)
				}
			},
		},
		{
			name: "repaired", script: llmtest.Texts("Sure! Here is the task: {query: oops", good(q1)), opts: genllm.Options{PerFile: 1}, kept: 1,
			stats: genllm.Stats{Drafts: 1, Kept: 1, Repaired: 1},
			checkFn: func(t *testing.T, calls []llmtest.Call, _ []schemas.Task) {
				if !strings.Contains(calls[1].Last().Content, "no valid JSON object") {
					t.Errorf("repair turn = %q", calls[1].Last().Content)
				}
			},
		},
		{
			name: "bad check repaired",
			script: llmtest.Texts(`{"query":"`+q1+`","category":"data_analysis","outputs":["output/clean.csv"],"checks":[{"kind":"table","path":"output/clean.csv","colour":"red"}]}`,
				good(q1)),
			opts: genllm.Options{PerFile: 1}, kept: 1, stats: genllm.Stats{Drafts: 1, Kept: 1, Repaired: 1},
			checkFn: func(t *testing.T, calls []llmtest.Call, _ []schemas.Task) {
				if !strings.Contains(calls[1].Last().Content, "colour") {
					t.Errorf("repair turn does not name the bad field: %q", calls[1].Last().Content)
				}
			},
		},
		{
			name: "dropped after repair", script: llmtest.Say("no json here"), opts: genllm.Options{PerFile: 2}, kept: 0,
			stats: genllm.Stats{Drafts: 2, Dropped: map[string]int{genllm.DropUnparsable: 2}},
		},
		{
			name: "near duplicate rejected", script: llmtest.Say(good(q1)), opts: genllm.Options{PerFile: 2}, kept: 1,
			stats: genllm.Stats{Drafts: 2, Kept: 1, Dropped: map[string]int{genllm.DropDuplicate: 1}},
		},
		{
			name: "critic asks for a revision",
			script: llmtest.Pick(func(c llmtest.Call) llmtest.Script {
				if isCritic(c) {
					return llmtest.Say(`{"ok": false, "problems": "the query ignores the keyword sort"}`)
				}
				return llmtest.Texts(good(q1), good(q2))
			}),
			opts: genllm.Options{PerFile: 1, Critic: true}, kept: 1, stats: genllm.Stats{Drafts: 1, Kept: 1, Revised: 1},
			checkFn: func(t *testing.T, calls []llmtest.Call, tasks []schemas.Task) {
				if tasks[0].Query != q2 || len(calls) != 3 || !strings.Contains(calls[2].Last().Content, "ignores the keyword sort") {
					t.Errorf("query %q after %d calls", tasks[0].Query, len(calls))
				}
				if !strings.Contains(calls[1].Messages[1].Content, "Keywords") || calls[1].Body["temperature"] != 0.0 {
					t.Errorf("critic request: %s", calls[1].Raw)
				}
			},
		},
		{
			name: "critic passes",
			script: llmtest.Pick(func(c llmtest.Call) llmtest.Script {
				if isCritic(c) {
					return llmtest.Say(`{"ok": true}`)
				}
				return llmtest.Say(good(q1))
			}),
			opts: genllm.Options{PerFile: 1, Critic: true}, kept: 1, stats: genllm.Stats{Drafts: 1, Kept: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tc.script)
			g := genllm.NewWriter(client(t, srv), tc.opts)
			files := []generators.Input{csvFile, {File: schemas.File{ID: "zz", Name: "x.bin", Type: "bin"}}}
			tasks, err := g.Generate(context.Background(), files)
			if err != nil {
				t.Fatal(err)
			}
			if len(tasks) != tc.kept {
				t.Fatalf("kept %d tasks, want %d: %+v", len(tasks), tc.kept, tasks)
			}
			if got := g.Stats(); !sameStats(got, tc.stats) {
				t.Errorf("stats = %+v, want %+v", got, tc.stats)
			}
			if tc.checkFn != nil {
				tc.checkFn(t, srv.Calls(), tasks)
			}
		})
	}
}

func TestGenerateDeterministicIDs(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Pick(func(c llmtest.Call) llmtest.Script {
		// A distinct query per keyword pair, so drafts are not duplicates.
		return llmtest.Say(good("Please do this with ./data/sales.csv and save ./output/clean.csv: " + c.Messages[1].Content[len(c.Messages[1].Content)-80:]))
	}))
	var ids [2][]string
	for run := range 2 {
		tasks, err := genllm.New(client(t, srv), genllm.Options{PerFile: 3, Langs: []string{"en", "zh"}}).Generate(context.Background(), []generators.Input{csvFile})
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range tasks {
			ids[run] = append(ids[run], tk.ID)
		}
	}
	if len(ids[0]) < 2 || strings.Join(ids[0], ",") != strings.Join(ids[1], ",") {
		t.Errorf("ids differ between runs or too few: %v / %v", ids[0], ids[1])
	}
}

func TestGenerateFatal(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Status(401, 0))
	_, err := genllm.New(client(t, srv), genllm.Options{}).Generate(context.Background(), []generators.Input{csvFile})
	if err == nil || !llm.IsFatal(err) || !strings.Contains(err.Error(), "sales.csv") {
		t.Fatalf("err = %v", err)
	}
}

// sameStats compares counts, reading a nil Dropped as empty and leaving
// the drop details out.
func sameStats(a, b genllm.Stats) bool {
	return a.Drafts == b.Drafts && a.Kept == b.Kept && a.Proven == b.Proven && a.Repaired == b.Repaired &&
		a.Revised == b.Revised && a.Failed == b.Failed && maps.Equal(a.Dropped, b.Dropped)
}
