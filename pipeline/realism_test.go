package pipeline

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"synth/bench"
	"synth/config"
	"synth/dataset"
	"synth/schemas"
)

// TestDefaultBuildLooksReal runs the quickstart as `make demo` does and
// checks what a training-data engineer would look at first: a varied
// corpus, output names that mean something, a benchmark over many files in
// one language per task, and rows that read like an agent's work (looks at
// the data, errors and recoveries, analysis that is not the todo repeated),
// with the scripted teacher named as such on the card.
func TestDefaultBuildLooksReal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole quickstart build")
	}
	needPython(t)
	out := filepath.Join(t.TempDir(), "out")
	var log strings.Builder
	sum, err := Build(context.Background(), config.Default(), Options{Out: out, Log: &log})
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, log.String())
	}
	checkReadmeFunnel(t, sum)
	checkDocFigures(t, out)

	// The corpus: at least 80 files of at least 14 types.
	var files []schemas.File
	readJSONL(t, filepath.Join(out, "files.jsonl"), func(b []byte) {
		var f schemas.File
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	})
	types := map[string]bool{}
	for _, f := range files {
		types[f.Type] = true
	}
	if len(files) < 80 || len(types) < 14 {
		t.Errorf("corpus of %d files in %d types, want >= 80 in >= 14", len(files), len(types))
	}

	// Output names: no random hex, and they name the input they come from.
	hexName := regexp.MustCompile(`output/[0-9a-f]{8}\b`)
	var tasks []schemas.Task
	readJSONL(t, filepath.Join(out, "tasks.jsonl"), func(b []byte) {
		var task schemas.Task
		if err := json.Unmarshal(b, &task); err != nil {
			t.Fatal(err)
		}
		tasks = append(tasks, task)
	})
	for _, task := range tasks {
		if hexName.MatchString(task.Query) {
			t.Errorf("task %s names a hex output: %s", task.ID, task.Query)
		}
	}

	// The benchmark: at least 30 distinct input files, one language per task.
	bt, err := bench.Load(sum.Bench)
	if err != nil {
		t.Fatal(err)
	}
	benchFiles := map[string]bool{}
	twins := map[string]string{}
	for _, task := range bt {
		for _, f := range task.Files {
			benchFiles[f.ID] = true
		}
		cj, _ := json.Marshal(task.Checks)
		key := task.Generator + fmt.Sprint(task.Files) + string(cj) + strings.Join(task.Outputs, ",")
		if other, ok := twins[key]; ok {
			t.Errorf("benchmark holds one task twice, as %s and %s", other, task.ID)
		}
		twins[key] = task.ID
	}
	if len(benchFiles) < 30 {
		t.Errorf("benchmark draws on %d distinct input files, want >= 30", len(benchFiles))
	}

	// Benchmark validation: the reference teacher passes every task it kept,
	// and dropped none because its reference failed.
	if strings.Contains(log.String(), "reference fails its checks") {
		t.Errorf("a benchmark task's reference failed under the scripted teacher:\n%s", grepLines(log.String(), "reference fails"))
	}

	// Tasks that use the messy columns: dates in mixed layouts (cleaned by
	// table.dates, summed per month by table.monthly), and outputs in a
	// folder of output/ that the solver has to create.
	mixed := map[string]int{}
	nested := 0
	for _, task := range tasks {
		for _, st := range task.Reference.Steps {
			if strings.Contains(st.Code, "when = pd.to_datetime(d, format='%Y-%m-%d', errors='coerce')") {
				mixed[strings.SplitN(task.Generator, "@", 2)[0]]++
				break
			}
		}
		for _, o := range task.Outputs {
			if strings.Count(o, "/") >= 2 {
				nested++
				break
			}
		}
	}
	for _, g := range []string{"template:table.dates", "template:table.monthly"} {
		if mixed[g] == 0 {
			t.Errorf("no %s task parses a date column of mixed layouts: %v", g, mixed)
		}
	}
	if nested == 0 {
		t.Error("no task asks for a file in a folder of output/")
	}

	// The rows.
	var rows, long, recovered, codeTurns, same int
	kinds := map[string]int{} // recoveries from each kind of mistake
	var st dataset.Stats
	for _, shard := range sum.Shards {
		err := dataset.ReadRows(shard, func(r *schemas.Row) error {
			rows++
			st.AddRow(r)
			if r.Turns >= 4 {
				long++
			}
			failed, counted := "", false
			for _, m := range r.Messages {
				switch m.Role {
				case schemas.RoleUser:
					if strings.HasPrefix(m.Content, "[INFO]This is a Code Interpreter Message:") {
						isErr := strings.Contains(m.Content, "Traceback (most recent call last)")
						if failed != "" && !isErr {
							if !counted {
								recovered++
								counted = true
							}
							kinds[failed]++
							failed = ""
						}
						if isErr {
							failed = mistakeKind(m.Content)
						}
					}
				case schemas.RoleAssistant:
					if a, todo, ok := analyseTodo(m.Content); ok {
						codeTurns++
						if a == todo {
							same++
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if rows == 0 {
		t.Fatal("no rows")
	}
	share := func(n int) float64 { return float64(n) / float64(rows) }
	if share(long) < 0.35 {
		t.Errorf("%d of %d rows (%.0f%%) have 4 or more turns, want >= 35%%", long, rows, 100*share(long))
	}
	if share(recovered) < 0.15 {
		t.Errorf("%d of %d rows (%.0f%%) have an error followed by a fix, want >= 15%%", recovered, rows, 100*share(recovered))
	}
	// Each kind of mistake the issue names happens and is recovered from.
	for _, k := range []string{"missing file", "misspelt column", "number parse", "date parse", "missing folder"} {
		if kinds[k] == 0 {
			t.Errorf("no row recovers from a %s: %v", k, kinds)
		}
	}
	if codeTurns == 0 || float64(codeTurns-same)/float64(codeTurns) < 0.95 {
		t.Errorf("Analyse differs from This Step Todo in %d of %d code turns, want >= 95%%", codeTurns-same, codeTurns)
	}
	t.Logf("%d files in %d types; %d benchmark tasks on %d files; %d rows: %.0f%% with >= 4 turns, %.0f%% recover from an error, Analyse != Todo in %d/%d turns; turn profile %v; recoveries %v; %d tasks with a nested output, mixed dates in %v",
		len(files), len(types), len(bt), len(benchFiles), rows, 100*share(long), 100*share(recovered), codeTurns-same, codeTurns, dataset.TurnProfile(&st.Tally), kinds, nested, mixed)

	// The card names the scripted teacher for what it is.
	card, err := os.ReadFile(filepath.Join(out, "dataset", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(card), "This is a scripted teacher, not a model") || !strings.Contains(string(card), "A real teacher") {
		t.Error("the dataset card does not say the offline teacher is a script and what a real teacher adds")
	}
}

// mistakeKind names the mistake behind an interpreter message with a
// traceback, by its last error line: the last line naming an exception
// (pandas 2's date error goes on for lines of advice after it).
func mistakeKind(obs string) string {
	lines := strings.Split(strings.TrimSpace(obs), "\n")
	last := lines[len(lines)-1]
	for i := len(lines) - 1; i >= 0; i-- {
		if errorLine.MatchString(lines[i]) {
			last = lines[i]
			break
		}
	}
	switch {
	case strings.HasPrefix(last, "FileNotFoundError") && strings.Contains(last, "'./output/"),
		strings.HasPrefix(last, "OSError: Cannot save file into a non-existent directory"): // pandas' to_csv
		return "missing folder"
	case strings.HasPrefix(last, "FileNotFoundError"):
		return "missing file"
	case strings.HasPrefix(last, "KeyError"):
		return "misspelt column"
	case strings.HasPrefix(last, "ValueError") && strings.Contains(last, "match format"):
		return "date parse"
	case strings.HasPrefix(last, "ValueError") && strings.Contains(last, "could not convert"):
		return "number parse"
	}
	return "other"
}

var errorLine = regexp.MustCompile(`^[A-Za-z_][\w.]*(Error|Exception): `)

var analyseRe = regexp.MustCompile(`(?s)^Analyse: (.*?)\nThis Step Todo: (.*?)\nAction:`)

// analyseTodo splits a PyBench code turn into its Analyse and Todo.
func analyseTodo(s string) (analyse, todo string, ok bool) {
	m := analyseRe.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return strings.TrimSpace(m[1]), strings.TrimSpace(m[2]), true
}

func readJSONL(t *testing.T, path string, fn func([]byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
