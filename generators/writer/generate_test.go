package writer_test

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"strings"
	"synth/checks/checkstest"
	"testing"
	"time"

	"synth/generators/writer"

	"synth/generators"
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
		opts    writer.Options
		kept    int
		stats   writer.Stats
		checkFn func(t *testing.T, calls []llmtest.Call, tasks []schemas.Task)
	}{
		{
			name: "valid at once", script: llmtest.Texts(good(q1)), opts: writer.Options{PerFile: 1}, kept: 1,
			stats: writer.Stats{Drafts: 1, Kept: 1},
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
			name: "repaired", script: llmtest.Texts("Sure! Here is the task: {query: oops", good(q1)), opts: writer.Options{PerFile: 1}, kept: 1,
			stats: writer.Stats{Drafts: 1, Kept: 1, Repaired: 1},
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
			opts: writer.Options{PerFile: 1}, kept: 1, stats: writer.Stats{Drafts: 1, Kept: 1, Repaired: 1},
			checkFn: func(t *testing.T, calls []llmtest.Call, _ []schemas.Task) {
				if !strings.Contains(calls[1].Last().Content, "colour") {
					t.Errorf("repair turn does not name the bad field: %q", calls[1].Last().Content)
				}
			},
		},
		{
			name: "dropped after repair", script: llmtest.Say("no json here"), opts: writer.Options{PerFile: 2}, kept: 0,
			stats: writer.Stats{Drafts: 2, Dropped: map[string]int{writer.DropUnparsable: 2}},
		},
		{
			name: "near duplicate rejected", script: llmtest.Say(good(q1)), opts: writer.Options{PerFile: 2}, kept: 1,
			stats: writer.Stats{Drafts: 2, Kept: 1, Dropped: map[string]int{writer.DropDuplicate: 1}},
		},
		{
			name: "critic asks for a revision",
			script: llmtest.Pick(func(c llmtest.Call) llmtest.Script {
				if isCritic(c) {
					return llmtest.Say(`{"ok": false, "problems": "the query ignores the keyword sort"}`)
				}
				return llmtest.Texts(good(q1), good(q2))
			}),
			opts: writer.Options{PerFile: 1, Critic: true}, kept: 1, stats: writer.Stats{Drafts: 1, Kept: 1, Revised: 1},
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
			opts: writer.Options{PerFile: 1, Critic: true}, kept: 1, stats: writer.Stats{Drafts: 1, Kept: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tc.script)
			g := writer.New(client(t, srv), tc.opts)
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
		tasks, err := writer.New(client(t, srv), writer.Options{PerFile: 3, Langs: []string{"en", "zh"}}).Generate(context.Background(), []generators.Input{csvFile})
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
	_, err := writer.New(client(t, srv), writer.Options{}).Generate(context.Background(), []generators.Input{csvFile})
	if err == nil || !llm.IsFatal(err) || !strings.Contains(err.Error(), "sales.csv") {
		t.Fatalf("err = %v", err)
	}
}

// sameStats compares counts, reading a nil Dropped as empty and leaving
// the drop details out.
func sameStats(a, b writer.Stats) bool {
	return a.Drafts == b.Drafts && a.Kept == b.Kept && a.Proven == b.Proven && a.Repaired == b.Repaired &&
		a.Revised == b.Revised && a.Failed == b.Failed && maps.Equal(a.Dropped, b.Dropped)
}

// provedDraft is a dedup task over testdata/sales.csv whose answer check
// expects want.
func provedDraft(want string) string {
	return `{"query":"Remove the duplicate rows of ./data/sales.csv, save ./output/clean.csv and give the mean amount of the rows kept.",
		"category":"data_analysis","checks":[{"kind":"table","path":"output/clean.csv","no_duplicates":true,"rows":{"expr":"len(pd.read_csv('data/sales.csv').drop_duplicates())"}},
		{"kind":"answer","number":` + want + `},` + sameTable + `],
		"reference":{"steps":[{"code":"import pandas as pd\ndf = pd.read_csv('data/sales.csv').drop_duplicates()\ndf.to_csv('output/clean.csv', index=False)\nprint(len(df), df['amount'].mean())"}],"answer":"5 rows; mean 3.75"}}`
}

// sameTable is a python check that compares output/clean.csv with the
// deduplicated input, cell by cell.
const sameTable = `{"kind":"python","code":"import pandas as pd\nexp = pd.read_csv('data/sales.csv').drop_duplicates().reset_index(drop=True)\nassert pd.read_csv('output/clean.csv').equals(exp)"}`

func TestGenerateProvesWithOneRepair(t *testing.T) {
	b := checkstest.Backend(t, 0)
	wrong, right := provedDraft(`{"value":4.5,"rel_tol":0.001}`), provedDraft(`{"expr":"pd.read_csv('data/sales.csv').drop_duplicates()['amount'].mean()","rel_tol":1e-6}`)
	srv := llmtest.NewServer(t, llmtest.Pick(func(c llmtest.Call) llmtest.Script {
		if c.N == 1 {
			return llmtest.Say(right)
		}
		return llmtest.Say(wrong)
	}))
	g := writer.New(client(t, srv), writer.Options{PerFile: 2, Concurrency: 1})
	g.SetProver(&writer.Prover{Backend: b})
	in := generators.Input{File: schemas.File{ID: "s1", Name: "sales.csv", Type: "csv"}, Path: filepath.Join("testdata", "sales.csv")}
	tasks, err := g.Generate(context.Background(), []generators.Input{in})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].Checks[1].Number.Value != 3.75 || *tasks[0].Checks[0].Rows != 5 {
		t.Fatalf("tasks = %+v", tasks)
	}
	calls := srv.Calls()
	if !strings.Contains(calls[1].Last().Content, "reference_failed") || !strings.Contains(calls[1].Last().Content, "4.5") {
		t.Errorf("the repair turn does not show what failed: %q", calls[1].Last().Content)
	}
	want := writer.Stats{Drafts: 2, Kept: 1, Proven: 1, Repaired: 1, Dropped: map[string]int{writer.DropReference: 1}}
	if got := g.Stats(); !sameStats(got, want) || len(got.Drops) != 1 || got.Drops[0].File != "sales.csv" {
		t.Errorf("stats = %+v, want %+v", got, want)
	}
	// A proof the sandbox cannot run loses the draft for this run only.
	in.Path = filepath.Join(t.TempDir(), "gone.csv")
	g = writer.New(client(t, srv), writer.Options{PerFile: 1})
	g.SetProver(&writer.Prover{Backend: b})
	if tasks, err = g.Generate(context.Background(), []generators.Input{in}); err != nil || len(tasks) != 0 {
		t.Fatalf("tasks %v, err %v", tasks, err)
	}
	if got := g.Stats(); got.Failed != 1 || len(got.Dropped) != 0 {
		t.Errorf("stats = %+v, want one failed draft and no drop", got)
	}
}

func TestGenerateSendsMaxTokensAndClipsPreviews(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Say("no json"))
	long := csvFile
	p := *long.File.Preview
	p.Head = strings.Repeat("north,1.5\n", 2000)
	long.File.Preview = &p
	g := writer.New(client(t, srv), writer.Options{PerFile: 1, PreviewBudget: 500})
	if _, err := g.Generate(context.Background(), []generators.Input{long}); err != nil {
		t.Fatal(err)
	}
	c := srv.Calls()[0]
	if c.Body["max_tokens"] != 2048.0 {
		t.Errorf("max_tokens = %v, want 2048 sent", c.Body["max_tokens"])
	}
	if n := len(c.Messages[1].Content); n > 1500 {
		t.Errorf("user prompt is %d characters with a preview budget of 500", n)
	}
}

func TestProbeJSON(t *testing.T) {
	refuse := llmtest.NewServer(t, llmtest.Always(llmtest.Reply{Status: 400, Body: `{"error":{"message":"unsupported response_format"}}`}))
	accept := llmtest.NewServer(t, llmtest.Say(`{"ok": true}`))
	down := llmtest.NewServer(t, llmtest.Status(401, 0))
	for _, tc := range []struct {
		srv     *llmtest.Server
		ok, err bool
	}{{refuse, false, false}, {accept, true, false}, {down, false, true}} {
		cfg := llm.Config{Endpoints: []llm.Endpoint{{BaseURL: tc.srv.URL, Model: "m", KeyEnv: "NO_SUCH_KEY_ENV"}}}
		ok, err := writer.ProbeJSON(context.Background(), cfg, "m")
		if ok != tc.ok || (err != nil) != tc.err {
			t.Errorf("%s: ok %v, err %v", tc.srv.URL, ok, err)
		}
		if c := tc.srv.Calls(); len(c) != 1 || c[0].Body["response_format"] == nil {
			t.Errorf("%s: %d probe requests, want one asking for response_format", tc.srv.URL, len(c))
		}
	}
}
