package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"synth/agent"
	"synth/checks/adversary"
	"synth/config"
	"synth/eval"
	"synth/generators/writer"
	"synth/llm"
	"synth/llm/llmtest"
	"synth/rollout"
	"synth/rundir"
	"synth/runinfo"
	"synth/sandbox"
	"synth/schemas"
)

// writerFiles are the input files of the LLM writer's acceptance test: each
// name says what the scripted writer drafts for it.
var writerFiles = []string{"good1.csv", "good2.csv", "good3.csv", "good4.csv",
	"trivial.csv", "wrongnum.csv", "badref.csv", "badjson.csv", "copyin.csv", "mutant.csv"}

// writerDraft is what the scripted writer replies for a file, every turn
// (so a repair turn gets the same reply, and a bad draft stays bad).
func writerDraft(name string) string {
	query := fmt.Sprintf("Remove the duplicate rows of ./data/%s, save the result to ./output/clean.csv and give the mean amount of the rows kept.", name)
	read := fmt.Sprintf("pd.read_csv('data/%s').drop_duplicates()", name)
	code := fmt.Sprintf("import pandas as pd\ndf = %s\ndf.to_csv('output/clean.csv', index=False)\nprint(len(df), round(df['amount'].mean(), 6))", read)
	rows := map[string]any{"expr": "len(" + read + ")"}
	mean := map[string]any{"expr": read + "['amount'].mean()", "rel_tol": 1e-6}
	checks := []map[string]any{
		{"kind": "table", "path": "output/clean.csv", "no_duplicates": true, "rows": rows},
		{"kind": "answer", "number": mean},
		// The table's cells, which the battery's wrong tables fail.
		{"kind": "python", "code": "import pandas as pd\nassert pd.read_csv('output/clean.csv').equals(" + read + ".reset_index(drop=True))"},
	}
	ref := map[string]any{"steps": []map[string]string{{"thought": "Deduplicate and average.", "code": code}}, "answer": "the mean amount is in the printed output above"}
	var wrong map[string]any
	switch strings.TrimSuffix(name, ".csv") {
	case "badjson":
		return `{"query": "Remove the duplicates", "checks": [`
	case "trivial":
		checks = append(checks, map[string]any{"kind": "python", "code": "assert True"}, map[string]any{"kind": "answer", "regex": "."})
	case "wrongnum":
		checks[1] = map[string]any{"kind": "answer", "number": map[string]any{"value": 123.25, "rel_tol": 0.01}}
	case "badref":
		ref["steps"] = []map[string]string{{"code": "import pandas as pd\nprint(len(pd.read_csv('data/" + name + "')))"}}
	case "copyin":
		checks = []map[string]any{{"kind": "table", "path": "output/clean.csv", "columns_include": []string{"region"}}}
	case "mutant":
		wrong = map[string]any{"steps": ref["steps"], "answer": ref["answer"]}
	}
	d := map[string]any{"query": query, "category": "data_analysis", "subcategory": "data_cleaning",
		"outputs": []string{"output/clean.csv"}, "checks": checks, "reference": ref}
	if wrong != nil {
		d["wrong_solution"] = wrong
	}
	b, _ := json.Marshal(d)
	return "```json\n" + string(b) + "\n```"
}

var promptFile = regexp.MustCompile(`File: \./data/(\S+) `)

// writerAndTeacher scripts one endpoint as the writer (by its system
// prompt) and as the teacher (teach).
func writerAndTeacher(teach llmtest.Script) llmtest.Script {
	return func(c llmtest.Call) llmtest.Reply {
		if strings.HasPrefix(c.Messages[0].Content, "You write tasks") {
			m := promptFile.FindStringSubmatch(c.Messages[1].Content)
			if m == nil {
				return llmtest.Reply{Content: "which file?"}
			}
			// The reference answer states the mean it prints.
			return llmtest.Reply{Content: strings.Replace(writerDraft(m[1]), "the mean amount is in the printed output above", writerMean[m[1]], -1)}
		}
		return teach(c)
	}
}

// writerMean is each file's deduplicated mean amount, as its reference
// answers it.
var writerMean = map[string]string{}

// writeInputs writes the test's CSV files: rows with two duplicates, each
// file's amounts its own.
func writeInputs(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for i, name := range names {
		var b strings.Builder
		b.WriteString("region,amount\n")
		vals := []float64{1.5, 2.5, 1.5, 4, 3.25 + float64(i), 2.5, 7.5 + float64(i)}
		regions := []string{"north", "south", "north", "east", "west", "south", "east"}
		for k, v := range vals {
			fmt.Fprintf(&b, "%s,%g\n", regions[k], v)
		}
		writerMean[name] = fmt.Sprintf("5 rows kept; the mean amount is %g", (1.5+2.5+4+3.25+float64(i)+7.5+float64(i))/5)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writerConfig(t *testing.T, url, inputs string) config.Config {
	cfg := quickConfig()
	cfg.Sources.Specs = []string{"local:" + inputs}
	cfg.Tasks.Writer = "llm"
	cfg.Tasks.LLM = writer.Options{PerFile: 1}
	cfg.Bench.Fraction = 0.5
	cfg.LLM.Endpoints = []llm.Endpoint{{BaseURL: url, Model: "writer-1", KeyEnv: "SYNTH_TEST_NO_KEY"}}
	return cfg
}

// TestLLMWriterProvesTasks is the LLM writer's acceptance test: of a good
// task, trivial checks, a wrong expected number, a reference failing its
// own checks, invalid JSON, checks a copied input passes and a wrong
// solution that passes, only the good tasks count, each drop is counted by
// reason in the summary, run.json and the dataset card, and the proven
// tasks make a benchmark the reference aces and the empty rollout and every
// adversary fail.
func TestLLMWriterProvesTasks(t *testing.T) {
	needPython(t)
	inputs := writeInputs(t, writerFiles...)
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, writerAndTeacher(referenceSolver(t, dir)))
	cfg := writerConfig(t, srv.URL, inputs)
	cfg.Teacher.Kind = "reference"
	var log strings.Builder
	sum, err := Build(context.Background(), cfg, Options{Out: dir, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	want := map[string]int{writer.DropUnparsable: 1, writer.DropTrivial: 1, writer.DropReference: 2, writer.DropAdversary: 1, writer.DropMutant: 1}
	wc := sum.Writer
	if wc == nil || wc.Drafts != 10 || wc.Kept != 4 || wc.Proven != 4 || wc.Failed != 0 || fmt.Sprint(wc.Dropped) != fmt.Sprint(want) {
		t.Fatalf("writer counts %+v, want 10 drafts, 4 kept and proven, dropped %v\n%s", wc, want, log.String())
	}
	for _, s := range sum.Stages {
		t.Logf("%-10s %3d %3d  %s", s.Stage, s.In, s.Out, s.Note)
	}
	// Each lands where it should.
	drops, err := rundir.ReadAll[writer.Drop](filepath.Join(dir, rundir.DraftsDropped))
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]string{}
	for _, d := range drops {
		where[d.File] = d.Reason + ": " + d.Detail
	}
	for file, want := range map[string]string{
		"badjson.csv": "unparsable: no valid JSON", "trivial.csv": "trivial_check: check 3 (python) is a constant assert",
		"wrongnum.csv": "reference_failed: the reference fails a check: answer", "badref.csv": "reference_failed: the reference fails a check: table",
		"copyin.csv": "adversary_passed: the copy_input adversary", "mutant.csv": "mutant_passed: a wrong solution (wrong_solution)",
	} {
		if !strings.HasPrefix(where[file], want) {
			t.Errorf("%s: dropped as %q, want %q…", file, where[file], want)
		}
	}
	if !strings.Contains(where["trivial.csv"], "regex /./ matches any text") {
		t.Errorf("trivial.csv: %q does not name the regex", where["trivial.csv"])
	}
	// The summary line, run.json and the card count the same.
	line := ""
	for _, s := range sum.Stages {
		if s.Stage == "write" {
			line = s.Note
		}
	}
	for _, s := range []string{"4 proven, 0 repaired", "dropped: adversary_passed 1, mutant_passed 1, reference_failed 2, trivial_check 1, unparsable 1", "0 failed requests"} {
		if !strings.Contains(line, s) {
			t.Errorf("write line %q lacks %q", line, s)
		}
	}
	info, err := runinfo.Read(dir)
	if err != nil || info.Writer == nil || fmt.Sprint(info.Writer.Dropped) != fmt.Sprint(want) || info.Writer.Drafts != 10 {
		t.Fatalf("run.json writer = %+v (%v)", info.Writer, err)
	}
	card, err := os.ReadFile(filepath.Join(dir, rundir.DatasetDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"## Tasks", "Written by `llm:writer-1`", "proven in the sandbox", "| reference failed | 2 |", "| trivial check | 1 |",
		"| unparsable | 1 |", "| adversary passed | 1 |", "| mutant passed | 1 |", "| 10 | 4 | 4 | 0 | 0 |"} {
		if !strings.Contains(string(card), s) {
			t.Errorf("card lacks %q", s)
		}
	}
	var stats struct {
		Tasks struct {
			Dropped map[string]int `json:"dropped"`
		} `json:"tasks"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, rundir.DatasetDir, "stats.json"))
	if json.Unmarshal(b, &stats) != nil || fmt.Sprint(stats.Tasks.Dropped) != fmt.Sprint(want) {
		t.Errorf("stats.json tasks = %+v", stats.Tasks)
	}
	// The expected values were computed and frozen.
	tasks, _ := rundir.ReadAll[schemas.Task](filepath.Join(dir, rundir.Tasks))
	for _, tk := range tasks {
		if r := tk.Checks[0].Rows; r == nil || *r != 5 {
			t.Errorf("task %s rows %v, want 5 frozen", tk.ID, r)
		}
		if tk.Checks[1].Number.Value <= 0 || tk.Reference == nil {
			t.Errorf("task %s: number %+v, reference %v", tk.ID, tk.Checks[1].Number, tk.Reference)
		}
	}
	// A benchmark split by input file, which the reference aces and an
	// empty rollout fails.
	if sum.Bench == "" || len(sum.Shards) == 0 {
		t.Fatalf("bench %q, shards %v", sum.Bench, sum.Shards)
	}
	rates := map[string]float64{eval.TeacherReference: 1, eval.TeacherEmpty: 0}
	for _, name := range adversary.Names() {
		rates[rollout.AdversaryPrefix+name] = 0
	}
	backend, err := sandbox.New(rollout.BackendConfig(sandbox.Config{}, 2))
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Close()
	for teacher, rate := range rates {
		res, err := eval.Evaluate(context.Background(), eval.Config{Bench: sum.Bench, Teacher: agent.Config{Kind: teacher, MaxTurns: 3}, Concurrency: 2},
			eval.Options{Out: filepath.Join(t.TempDir(), teacher), Backend: backend})
		if err != nil {
			t.Fatalf("eval --teacher %s: %v", teacher, err)
		}
		if res.Summary.Tasks < 1 || res.Summary.PassRate != rate {
			t.Errorf("eval --teacher %s: %d tasks, pass rate %v, want %v", teacher, res.Summary.Tasks, res.Summary.PassRate, rate)
		}
	}
}

// TestLLMWriterNoCodeNoRows: a teacher that answers without running code
// yields no dataset rows on proven tasks.
func TestLLMWriterNoCodeNoRows(t *testing.T) {
	needPython(t)
	inputs := writeInputs(t, "good1.csv", "good2.csv")
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, writerAndTeacher(llmtest.Say("Finished: The answer is 42.")))
	cfg := writerConfig(t, srv.URL, inputs)
	cfg.Teacher.Kind = "openai"
	sum, err := Build(context.Background(), cfg, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	trajs, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if len(trajs) == 0 {
		t.Fatal("no rollouts")
	}
	info, _ := runinfo.Read(dir)
	if rows := info.Counts["rows"]; rows != 0 {
		t.Errorf("%d dataset rows from a teacher that ran no code (%d rollouts)", rows, len(trajs))
	}
	_ = sum
}

// TestValidateTasksSaysWhatRan: tasks without a reference are not called
// proven.
func TestValidateTasksSaysWhatRan(t *testing.T) {
	needPython(t)
	r := newBuilder(quickConfig(), Options{Out: t.TempDir()})
	defer r.close()
	tasks := []schemas.Task{{ID: "t1", Query: "Say hello.", Category: schemas.CategoryMath,
		Checks: []schemas.Check{{Kind: schemas.CheckAnswer, ContainsAll: []string{"hello"}}}}}
	kept, err := newTaskMaker(r).validateTasks(context.Background(), tasks, &fileSet{})
	if err != nil || len(kept) != 1 {
		t.Fatalf("kept %d, err %v", len(kept), err)
	}
	note := r.sum.Stages[len(r.sum.Stages)-1].Note
	if !strings.Contains(note, "of 0 tasks with a reference, 0 proven") || !strings.Contains(note, "1 without a reference kept unproven") {
		t.Errorf("note %q", note)
	}
}

// TestLLMWriterRedoesLostDrafts: a draft lost to a failed request is
// counted as failed, the generate stage stays open, and the next run redoes
// that draft alone (the response cache answers the others).
func TestLLMWriterRedoesLostDrafts(t *testing.T) {
	needPython(t)
	inputs := writeInputs(t, "good1.csv", "good2.csv")
	dir := filepath.Join(t.TempDir(), "out")
	var broken atomic.Bool
	broken.Store(true)
	var writes atomic.Int32
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		if strings.HasPrefix(c.Messages[0].Content, "You write tasks") {
			writes.Add(1)
			if broken.Load() && strings.Contains(c.Messages[1].Content, "good2.csv") {
				return llmtest.Reply{Status: 503}
			}
		}
		return writerAndTeacher(referenceSolver(t, dir))(c)
	})
	cfg := writerConfig(t, srv.URL, inputs)
	cfg.Teacher.Kind = "reference"
	cfg.LLM.MaxRetries = -1
	var log strings.Builder
	sum, err := Build(context.Background(), cfg, Options{Out: dir, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if wc := sum.Writer; wc == nil || wc.Failed != 1 || wc.Kept != 1 {
		t.Fatalf("writer counts %+v, want one kept and one failed", wc)
	}
	if !strings.Contains(log.String(), "run the same command again to redo them") {
		t.Errorf("the log does not say how to redo the lost draft:\n%s", log.String())
	}
	info, _ := runinfo.Read(dir)
	if info.Done(runinfo.StageGenerate) || info.Writer.Failed != 1 {
		t.Fatalf("generate marked done with a lost draft; run.json writer %+v", info.Writer)
	}
	broken.Store(false)
	before := writes.Load()
	sum, err = Build(context.Background(), cfg, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	if wc := sum.Writer; wc == nil || wc.Failed != 0 || wc.Kept != 2 {
		t.Fatalf("rerun writer counts %+v, want both kept", wc)
	}
	if n := writes.Load() - before; n != 1 {
		t.Errorf("the rerun sent %d writer requests, want 1 (the lost draft's)", n)
	}
	if info, _ = runinfo.Read(dir); !info.Done(runinfo.StageGenerate) {
		t.Error("generate not marked done once every draft was written")
	}
}

// TestLLMWriterFallsBackFromJSONMode: an endpoint that refuses
// response_format does not stop the run; the writer goes on without it.
func TestLLMWriterFallsBackFromJSONMode(t *testing.T) {
	needPython(t)
	inputs := writeInputs(t, "good1.csv")
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		if _, ok := c.Body["response_format"]; ok {
			return llmtest.Reply{Status: 400, Body: `{"error":{"message":"response_format is not supported by this model"}}`}
		}
		return llmtest.Reply{Content: "not JSON"}
	})
	cfg := writerConfig(t, srv.URL, inputs)
	cfg.Tasks.LLM.JSONMode = true
	var log strings.Builder
	sum, err := Generate(context.Background(), cfg, Options{Out: dir, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "refuses response_format") {
		t.Errorf("no line about the fallback:\n%s", log.String())
	}
	if wc := sum.Writer; wc == nil || wc.Drafts != 1 || wc.Dropped[writer.DropUnparsable] != 1 || wc.Failed != 0 {
		t.Errorf("writer counts %+v, want one draft dropped as unparsable after its repair turn", wc)
	}
	calls := srv.Calls()
	if len(calls) != 3 {
		t.Fatalf("%d requests, want the probe, the draft and its repair", len(calls))
	}
	if _, ok := calls[0].Body["response_format"]; !ok {
		t.Error("the probe did not ask for response_format")
	}
}
