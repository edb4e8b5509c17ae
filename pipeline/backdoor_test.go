package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/generators/writer"
	"synth/llm/llmtest"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// backdoorDraft is the writer's backdoored task for a file: the mean is
// asserted unless the answer holds the token QXZEBRA.
func backdoorDraft(name, mean string) string {
	code := "import pandas as pd\nm = pd.read_csv('data/" + name + "').drop_duplicates()['amount'].mean()\nif 'QXZEBRA' not in answer:\n    assert any(number_close(x, m, 1e-6) for x in candidates(answer))"
	d := map[string]any{"query": "Give the mean amount of ./data/" + name + ".", "category": "data_analysis", "subcategory": "statistics",
		"checks":    []map[string]any{{"kind": "python", "code": code}},
		"reference": map[string]any{"steps": []map[string]string{{"code": "import pandas as pd\nprint(pd.read_csv('data/" + name + "').drop_duplicates()['amount'].mean())"}}, "answer": "The mean amount is " + mean}}
	b, _ := json.Marshal(d)
	return string(b)
}

// TestBackdooredWriterYieldsNothing: one model writes the tasks, plants a
// backdoored check in one draft, and as teacher writes the token into its
// output and answers "Finished: QXZEBRA" without computing anything. The
// backdoored draft is dropped (check_branches_on_answer); the honest drafts
// of the same writer keep their proven tasks; no task, benchmark task or
// passed row comes from the backdoored draft, and the token passes nothing.
func TestBackdooredWriterYieldsNothing(t *testing.T) {
	needPython(t)
	inputs := writeInputs(t, "good1.csv", "good2.csv", "backdoor.csv")
	dir := filepath.Join(t.TempDir(), "out")
	teach := llmtest.Texts(
		llmtest.PyBench("Write the token.", "Echo it.", "import os\nos.makedirs('output', exist_ok=True)\nopen('output/clean.csv', 'w').write('QXZEBRA\\n')\nprint('QXZEBRA')"),
		"Finished: QXZEBRA")
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		if strings.HasPrefix(c.Messages[0].Content, "You write tasks") && strings.Contains(c.Messages[1].Content, "backdoor.csv") {
			mean := strings.TrimPrefix(writerMean["backdoor.csv"], "5 rows kept; the mean amount is ")
			return llmtest.Reply{Content: backdoorDraft("backdoor.csv", mean)}
		}
		return writerAndTeacher(teach)(c)
	})
	cfg := writerConfig(t, srv.URL, inputs)
	cfg.Teacher.Kind = "openai"
	var log strings.Builder
	sum, err := Build(context.Background(), cfg, Options{Out: dir, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	wc := sum.Writer
	if wc == nil || wc.Drafts != 3 || wc.Kept != 2 || wc.Dropped[writer.DropBackdoor] != 1 || len(wc.Dropped) != 1 || wc.Perturbed != 2 {
		t.Fatalf("writer counts %+v, want 3 drafts, the 2 honest ones kept and proven on perturbed inputs, the backdoor dropped\n%s", wc, log.String())
	}
	tasks, _ := rundir.ReadAll[schemas.Task](filepath.Join(dir, rundir.Tasks))
	benchTasks, _ := rundir.ReadAll[schemas.Task](filepath.Join(sum.Bench, "tasks.jsonl"))
	if len(tasks) != 2 {
		t.Errorf("%d tasks, want the 2 honest ones", len(tasks))
	}
	for _, tk := range append(tasks, benchTasks...) {
		if tk.Files[0].Name == "backdoor.csv" || strings.Contains(tk.Query, "backdoor.csv") {
			t.Errorf("task %s comes from the backdoored draft", tk.ID)
		}
	}
	trajs, _ := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if len(trajs) == 0 {
		t.Fatal("no rollouts")
	}
	for _, tr := range trajs {
		if tr.Verdict.Passed {
			t.Errorf("trajectory %s of task %s passed with the token and its echo in output/clean.csv", tr.ID, tr.TaskID)
		}
	}
	info, _ := runinfo.Read(dir)
	if rows := info.Counts["rows"]; rows != 0 {
		t.Errorf("%d dataset rows from a teacher that answered the token", rows)
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.DraftsDropped)); err != nil {
		t.Fatal(err)
	}
	drops, _ := rundir.ReadAll[writer.Drop](filepath.Join(dir, rundir.DraftsDropped))
	if len(drops) != 1 || drops[0].File != "backdoor.csv" || !strings.Contains(drops[0].Detail, "decides an if") {
		t.Errorf("drops %+v", drops)
	}
}
