package agent

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// pandasSandbox answers like the interpreter would for a table with the
// columns order_date, region, amount (text with separators) and units: a
// path without ./data/ and a misspelt column raise, converting amount
// raises, the types and column names print.
type pandasSandbox struct {
	cells   []string
	folders map[string]bool // the folders under output/ made so far
}

var colRef = regexp.MustCompile(`"([^"]+)"`)

func (s *pandasSandbox) Exec(_ context.Context, code string) (sandbox.Result, error) {
	s.cells = append(s.cells, code)
	fail := func(e string) (sandbox.Result, error) {
		return sandbox.Result{Status: schemas.StatusError, Output: "Traceback (most recent call last):\n  File \"<cell-1>\", line 1, in <module>\n" + e + "\n"}, nil
	}
	cols := map[string]bool{"order_date": true, "region": true, "amount": true, "units": true, "./data/sales.csv": true, "./output/x.csv": true, "./output/reports/x.csv": true}
	if strings.Contains(code, "os.makedirs('./output/reports'") {
		if s.folders == nil {
			s.folders = map[string]bool{}
		}
		s.folders["reports"] = true
	}
	switch {
	case strings.Contains(code, `to_csv("./output/reports/x.csv")`) && !s.folders["reports"]:
		return fail("FileNotFoundError: [Errno 2] No such file or directory: './output/reports/x.csv'")
	case strings.Contains(code, `read_csv("sales.csv")`):
		return fail("FileNotFoundError: [Errno 2] No such file or directory: 'sales.csv'")
	case strings.Contains(code, "format='%Y-%m-%d').agg("):
		return fail("ValueError: time data \"01.01.2023\" at position 0 doesn't match format specified")
	case strings.Contains(code, ".value_counts()"):
		return sandbox.Result{Status: schemas.StatusOK, Output: "9999-99-99      82\n99.99.9999      35\n99/99/9999      34\nMon 99, 9999    24\nName: order_date, dtype: int64\n"}, nil
	case strings.Contains(code, "astype(float)"):
		return fail("ValueError: could not convert string to float: '1,234.50'")
	case strings.Contains(code, ".dtypes"):
		return sandbox.Result{Status: schemas.StatusOK, Output: "order_date    object\nregion        object\namount        object\nunits          int64\ndtype: object\n"}, nil
	case strings.Contains(code, ".columns.tolist()"):
		return sandbox.Result{Status: schemas.StatusOK, Output: "['order_date', 'region', 'amount', 'units']\n"}, nil
	case strings.Contains(code, "os.listdir('./data')"):
		return sandbox.Result{Status: schemas.StatusOK, Output: "['sales.csv']\n"}, nil
	}
	for _, m := range colRef.FindAllStringSubmatch(code, -1) {
		if !cols[m[1]] && !strings.Contains(m[1], "%") {
			return fail("KeyError: '" + m[1] + "'")
		}
	}
	if strings.Contains(code, "print(df.shape)") {
		return sandbox.Result{Status: schemas.StatusOK, Output: "(120, 4)\n  order_date region amount units\n"}, nil
	}
	return sandbox.Result{Status: schemas.StatusOK, Output: "42\n"}, nil
}

func (s *pandasSandbox) Workspace() string { return "" }
func (s *pandasSandbox) Close() error      { return nil }

func salesTask(id string) *schemas.Task { return salesTaskTo(id, "./output", "./output/x.csv") }

// salesTaskTo is salesTask creating folder and saving to out.
func salesTaskTo(id, folder, out string) *schemas.Task {
	return &schemas.Task{ID: id, Query: "Total units per region, saved to " + out + ".", Lang: "en",
		Files: []schemas.TaskFile{{ID: "f", Name: "sales.csv", Type: "csv"}},
		Reference: &schemas.Reference{Steps: []schemas.RefStep{
			{Thought: "Load the data and look at its shape, columns and first rows.", Code: "import pandas as pd\ndf = pd.read_csv(\"./data/sales.csv\")\nprint(df.shape)\nprint(df.head())"},
			{Thought: "Sum per region and save.", Code: "s = df.groupby(\"region\")[\"units\"].sum()\nt = s.sort_values()\nimport os\nos.makedirs('" + folder + "', exist_ok=True)\nt.to_csv(\"" + out + "\")\nprint(t)"},
		}, Answer: "Saved to " + out + "."}}
}

// The scripted teacher may look, split, err and recover, but the cells
// that succeed run the reference's statements in order, each once, and it
// finishes with the reference answer; its Analyse is never its Todo; it
// is deterministic per task and sample.
func TestReferenceScriptKeepsTheSolution(t *testing.T) {
	kinds := map[string]int{}
	for i := range 300 {
		task := salesTask(strings.Repeat("t", 1+i%3) + string(rune('a'+i%26)) + string(rune('a'+i/26)))
		if i%2 == 1 {
			task = salesTaskTo(task.ID, "./output/reports", "./output/reports/x.csv")
		}
		run := func() (*schemas.Trajectory, *pandasSandbox) {
			sb := &pandasSandbox{}
			tr, err := Run(context.Background(), NewReference(NewPyBench()), NewPyBench(), sb, task, Options{})
			if err != nil {
				t.Fatal(err)
			}
			return tr, sb
		}
		tr, sb := run()
		if tr.StopReason != schemas.StopFinished || tr.FinalAnswer != task.Reference.Answer {
			t.Fatalf("%s: stop %q answer %q", task.ID, tr.StopReason, tr.FinalAnswer)
		}
		tr2, _ := run()
		if len(tr2.Messages) != len(tr.Messages) || tr2.Messages[3].Content != tr.Messages[3].Content {
			t.Fatalf("%s: two runs differ", task.ID)
		}
		// The reference statements, in order, from the cells that did not
		// fail and are not the teacher's own looks.
		var ran []string
		for k, st := range tr.Steps {
			stmts, _ := statements(st.Code)
			if st.Status != schemas.StatusOK {
				e := errorLine(st.Observation)
				kinds[e[:strings.Index(e, ":")]]++
				if k+1 >= len(tr.Steps) || tr.Steps[k+1].Status != schemas.StatusOK {
					t.Errorf("%s: an error not followed by a working cell", task.ID)
				}
				if strings.Contains(e, "./output/reports/") {
					// saving before the folder exists: what came before the
					// save ran, the next cell makes the folder and saves
					kinds["missing folder"]++
					if !strings.HasPrefix(tr.Steps[k+1].Code, "os.makedirs('./output/reports', exist_ok=True)\nt.to_csv(") {
						t.Errorf("%s: after %s the teacher ran %q", task.ID, e, tr.Steps[k+1].Code)
					}
					for _, s := range stmts[:len(stmts)-1] {
						if s != "import os" {
							ran = append(ran, s)
						}
					}
				}
				continue
			}
			if k+1 < len(tr.Steps) && strings.HasPrefix(tr.Steps[k+1].Code, "import os\n") && stmts[len(stmts)-1] == "print(t)" {
				stmts = stmts[:len(stmts)-1] // the print a split adds to show the result
			}
			for _, s := range stmts {
				if strings.HasPrefix(s, "print(df.dtypes)") || strings.Contains(s, "listdir('./data')") || s == "import os" ||
					strings.Contains(s, "columns.tolist()") || strings.Contains(s, "_parsed") {
					continue
				}
				ran = append(ran, s)
			}
		}
		var want []string
		for _, st := range task.Reference.Steps {
			stmts, _ := statements(st.Code)
			for _, s := range stmts {
				if s != "import os" {
					want = append(want, s)
				}
			}
		}
		if strings.Join(ran, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the working cells ran\n%s\nwant the reference\n%s\ncells: %q", task.ID, strings.Join(ran, "\n"), strings.Join(want, "\n"), sb.cells)
		}
		if len(tr.Steps) > maxCodeTurns {
			t.Errorf("%s: %d code turns, more than %d", task.ID, len(tr.Steps), maxCodeTurns)
		}
		for _, m := range tr.Messages {
			if m.Role != schemas.RoleAssistant || strings.HasPrefix(m.Content, "Finished:") {
				continue
			}
			a, todo, _ := strings.Cut(strings.TrimPrefix(m.Content, "Analyse: "), "\nThis Step Todo: ")
			todo, _, _ = strings.Cut(todo, "\n")
			if a == todo || a == "" {
				t.Errorf("%s: Analyse %q, Todo %q", task.ID, a, todo)
			}
		}
	}
	for _, k := range []string{"FileNotFoundError", "KeyError", "ValueError", "missing folder"} {
		if kinds[k] == 0 {
			t.Errorf("no rollout of 300 made a %s mistake: %v", k, kinds)
		}
	}
}

// After a misspelt column the teacher quotes the error and the real name.
func TestReferenceQuotesWhatItSaw(t *testing.T) {
	for i := range 300 {
		task := salesTask("q" + string(rune('a'+i%26)) + string(rune('a'+i/26)))
		sb := &pandasSandbox{}
		tr, err := Run(context.Background(), NewReference(NewPyBench()), NewPyBench(), sb, task, Options{})
		if err != nil {
			t.Fatal(err)
		}
		all := ""
		for _, m := range tr.Messages {
			all += m.Content + "\n"
		}
		if strings.Contains(all, "KeyError: 'Region'") {
			for _, want := range []string{"The cell failed with `KeyError: 'Region'`", `The column is called "region", not "Region"`, "Of the 4 columns, 1 are numeric (units)"} {
				if !strings.Contains(all, want) {
					t.Errorf("%s: the turns do not say %q:\n%s", task.ID, want, all)
				}
			}
			return
		}
	}
	t.Fatal("no rollout misspelt the column")
}

// Under a tight turn cap the script shrinks to the reference steps, so the
// reference teacher still finishes every task (eval --max-turns 3).
func TestReferenceFitsTheTurnCap(t *testing.T) {
	for i := range 100 {
		task := salesTask("cap" + string(rune('a'+i%26)) + string(rune('a'+i/26)))
		tr, err := Run(context.Background(), NewReference(NewPyBench()), NewPyBench(), &pandasSandbox{}, task, Options{MaxTurns: 3})
		if err != nil {
			t.Fatal(err)
		}
		if tr.StopReason != schemas.StopFinished || tr.FinalAnswer != task.Reference.Answer {
			t.Fatalf("%s: stop %q after %d steps", task.ID, tr.StopReason, len(tr.Steps))
		}
	}
}

// A date column of mixed layouts: the teacher may parse it as ISO, read the
// ValueError, count the layouts and quote them, then run the reference's
// parse unchanged.
func TestReferenceParsesMixedDates(t *testing.T) {
	parse := "d = df[\"order_date\"].astype(str).str.strip()\nwhen = pd.to_datetime(d, format='%Y-%m-%d', errors='coerce')\nfor f in ['%m/%d/%Y', '%d.%m.%Y', '%b %d, %Y']:\n    when = when.fillna(pd.to_datetime(d, format=f, errors='coerce'))\ndf['month'] = when.dt.strftime('%Y-%m')\nprint(df['month'].head())"
	seen := 0
	for i := range 100 {
		task := salesTask("md" + string(rune('a'+i%26)) + string(rune('a'+i/26)))
		task.Reference.Steps = append(task.Reference.Steps[:1], schemas.RefStep{Thought: "Parse the dates.", Code: parse})
		tr, err := Run(context.Background(), NewReference(NewPyBench()), NewPyBench(), &pandasSandbox{}, task, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tr.StopReason != schemas.StopFinished || tr.Steps[len(tr.Steps)-1].Code != parse {
			t.Fatalf("%s: stop %q, last cell %q", task.ID, tr.StopReason, tr.Steps[len(tr.Steps)-1].Code)
		}
		for k, st := range tr.Steps {
			if !strings.Contains(st.Observation, "doesn't match format") {
				continue
			}
			seen++
			if k+2 >= len(tr.Steps) || !strings.Contains(tr.Steps[k+1].Code, "value_counts()") || tr.Steps[k+2].Code != parse {
				t.Fatalf("%s: after the parse error the teacher ran %+v", task.ID, tr.Steps[k+1:])
			}
			all := ""
			for _, m := range tr.Messages {
				all += m.Content + "\n"
			}
			if !strings.Contains(all, "The values come in 4 layouts: 9999-99-99 (82), 99.99.9999 (35)") {
				t.Errorf("%s: the turns do not quote the layouts:\n%s", task.ID, all)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no rollout of 100 parsed the mixed dates as ISO first")
	}
}
