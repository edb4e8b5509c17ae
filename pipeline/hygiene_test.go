package pipeline

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"sync"
	"testing"

	"synth/agent"
	"synth/dataset"
	"synth/filters"
	"synth/llm/llmtest"
	"synth/rundir"
	"synth/schemas"
)

// Habits of the hostile teacher, by task.
const (
	hostileClean  = iota // plays the reference solution
	hostileRepeat        // runs its first cell twice in a row
	hostileLoop          // raises the same error three times first
)

func hostileMode(query string) int {
	h := fnv.New32a()
	h.Write([]byte(query))
	return int(h.Sum32() % 3)
}

// hostileSolver scripts a teacher that knows every task's reference
// solution but, on two tasks in three, repeats a cell or loops on an error
// (different cells, one error) before it plays it; either way it then finishes right.
func hostileSolver(t *testing.T, dir string) llmtest.Script {
	var once sync.Once
	byQuery := map[string]*schemas.Task{}
	format := agent.NewPyBench()
	return func(c llmtest.Call) llmtest.Reply {
		once.Do(func() {
			tasks, err := rundir.ReadAll[schemas.Task](filepath.Join(dir, rundir.Tasks))
			if err != nil {
				t.Error(err)
			}
			for i := range tasks {
				byQuery[tasks[i].Query] = &tasks[i]
			}
		})
		task := byQuery[c.Query()]
		if task == nil || task.Reference == nil {
			return llmtest.Reply{Content: "Finished: I do not know."}
		}
		steps := task.Reference.Steps
		say := func(code, thought string) llmtest.Reply {
			return llmtest.Reply{Content: format.Render(agent.Action{Code: code}, thought).Content, PromptTokens: 100, CompletionTokens: 50}
		}
		k := c.Turn()
		switch hostileMode(c.Query()) {
		case hostileRepeat:
			if k == 1 && len(steps) > 0 {
				return say(steps[0].Code, steps[0].Thought)
			}
			if k > 0 {
				k--
			}
		case hostileLoop:
			if k < 3 {
				return say(fmt.Sprintf("col = 'price%d'\nraise ValueError('no column named price')", k), "I read the price column.")
			}
			k -= 3
		}
		if k < len(steps) {
			return say(steps[k].Code, steps[k].Thought)
		}
		return llmtest.Reply{Content: "Finished: " + task.Reference.Answer, PromptTokens: 100, CompletionTokens: 20}
	}
}

// TestHygieneDropsAHostileTeachersRows: a teacher that repeats cells and
// loops on errors gets none of those rollouts into the dataset, each
// dropped by the hygiene gate with its reason named in the drop log, while
// its clean rollouts are kept; the card's figures count them.
func TestHygieneDropsAHostileTeachersRows(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	srv := llmtest.NewServer(t, hostileSolver(t, dir))
	cfg := openaiConfig(srv.URL)
	cfg.Filters.Gate.MaxFailedCells = 1 // the loop's failed cells are the hygiene gate's to judge
	cfg.Teacher.MaxTurns = 30
	if _, err := Build(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	tasks, err := rundir.ReadAll[schemas.Task](filepath.Join(dir, rundir.Tasks))
	if err != nil {
		t.Fatal(err)
	}
	mode := map[string]int{}
	for _, tk := range tasks {
		mode[tk.ID] = hostileMode(tk.Query)
	}
	trajs, err := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if err != nil {
		t.Fatal(err)
	}
	taskOf := map[string]string{}
	for _, tr := range trajs {
		taskOf[tr.ID] = tr.TaskID
	}
	kept := map[int]int{}
	shards, _ := filepath.Glob(filepath.Join(dir, rundir.DatasetDataDir, "*.parquet"))
	for _, p := range shards {
		err = dataset.ReadRows(p, func(r *schemas.Row) error {
			kept[mode[r.TaskID]]++
			if m := mode[r.TaskID]; m != hostileClean {
				t.Errorf("row %s of a hostile rollout (habit %d) was kept", r.ID, m)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if kept[hostileClean] == 0 {
		t.Error("no clean rollout was kept: the gate drops what it should not")
	}
	drops, err := rundir.ReadAll[filters.DropRecord](filepath.Join(dir, rundir.Filtered))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{hostileRepeat: filters.ReasonRepeatedCell, hostileLoop: filters.ReasonErrorLoop}
	named := map[string]int{}
	for _, d := range drops {
		if d.Stage != filters.StageHygiene {
			continue
		}
		m := mode[taskOf[d.Item]]
		if d.Reason != want[m] || d.Matched == "" {
			t.Errorf("rollout %s (habit %d) dropped for %q (%q), want %q with what repeated", d.Item, m, d.Reason, d.Matched, want[m])
		}
		named[d.Reason]++
	}
	if named[filters.ReasonRepeatedCell] == 0 || named[filters.ReasonErrorLoop] == 0 {
		t.Errorf("hygiene drops %v: want repeated cells and error loops among them", named)
	}
	ri, err := readRunHygiene(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ri.RepeatedCells != int64(named[filters.ReasonRepeatedCell]) || ri.ErrorLoops != int64(named[filters.ReasonErrorLoop]) {
		t.Errorf("run.json hygiene %+v, but the drop log names %v", ri, named)
	}
}

func readRunHygiene(dir string) (*schemas.HygieneReport, error) {
	var v struct {
		Hygiene *schemas.HygieneReport `json:"hygiene"`
	}
	if _, err := rundir.ReadRunInfo(dir, &v); err != nil || v.Hygiene == nil {
		return &schemas.HygieneReport{}, err
	}
	return v.Hygiene, nil
}

// TestSloppyTeacherKeepsNoRows: the offline sloppy teacher (synth build
// --teacher sloppy) shows one bad habit in every rollout and still passes
// its checks; the filter keeps none of its rollouts and names each drop's
// reason, the hygiene gate's being the habit the teacher showed.
func TestSloppyTeacherKeepsNoRows(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "out")
	cfg := quickConfig()
	cfg.Tasks.Templates = []string{"table.sort", "table.shape", "text."}
	cfg.Teacher.Kind = "sloppy"
	if _, err := Build(context.Background(), cfg, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	trajs, err := rundir.ReadAll[schemas.Trajectory](filepath.Join(dir, rundir.Trajectories))
	if err != nil {
		t.Fatal(err)
	}
	habit, passed := map[string]string{}, 0
	for _, tr := range trajs {
		habit[tr.ID] = agent.HabitOf(tr.TaskID, tr.Sample)
		if tr.Verdict != nil && tr.Verdict.Passed {
			passed++
		}
	}
	if passed == 0 {
		t.Fatal("no sloppy rollout passed its checks: its habits must not break the solution")
	}
	shards, _ := filepath.Glob(filepath.Join(dir, rundir.DatasetDataDir, "*.parquet"))
	for _, p := range shards {
		if err := dataset.ReadRows(p, func(r *schemas.Row) error {
			t.Errorf("row %s of a sloppy rollout (habit %s) was kept", r.ID, habit[r.ID])
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	drops, err := rundir.ReadAll[filters.DropRecord](filepath.Join(dir, rundir.Filtered))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, d := range drops {
		h, ok := habit[d.Item]
		if !ok || d.Stage != filters.StageHygiene {
			continue
		}
		seen[d.Reason]++
		// A repeated turn that is also a repeated cell is named for the cell.
		if d.Reason != h && !(h == agent.HabitRepeatedCell && d.Reason == filters.ReasonRepeatedTurn) {
			t.Errorf("rollout %s (habit %s) dropped for %q", d.Item, h, d.Reason)
		}
	}
	for _, r := range []string{filters.ReasonRepeatedCell, filters.ReasonErrorLoop, filters.ReasonRepeatedTurn} {
		if seen[r] == 0 {
			t.Errorf("no rollout dropped for %s (drops: %v)", r, seen)
		}
	}
}
