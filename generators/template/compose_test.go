package template

import (
	"context"
	"slices"
	"strings"
	"testing"

	"synth/checks/checkstest"
	"synth/generators"
	"synth/proof"
	"synth/schemas"
)

// composedOpts writes composed tasks in English only, as the demo's
// settings do (two of three slots per table file).
var composedOpts = Options{Seed: 1, Langs: []string{"en"}, PerFile: 3, Strict: true, Include: []string{"table."},
	Composed: Composed{Share: 0.5, Depth: 3}}

func composedTasks(ts []schemas.Task) []schemas.Task {
	var out []schemas.Task
	for _, t := range ts {
		if t.Steps > 0 {
			out = append(out, t)
		}
	}
	return out
}

// TestComposedTasksChainSteps: on the built-in corpus the composer writes
// tasks of 3 or more steps over one table and over two a key links, each
// reference the load, a step per link and the report; with Share 0 it
// writes none.
func TestComposedTasksChainSteps(t *testing.T) {
	ts := composedTasks(generate(t, composedOpts))
	if len(ts) < 20 {
		t.Fatalf("%d composed tasks on the built-in corpus, want at least 20", len(ts))
	}
	joins := 0
	for _, task := range ts {
		if task.Steps < 3 || len(task.Reference.Steps) != task.Steps+2 {
			t.Errorf("%s: %d steps, reference of %d", task.ID, task.Steps, len(task.Reference.Steps))
		}
		if TemplateName(&task) == "table.chainjoin" {
			joins++
		}
	}
	if joins == 0 {
		t.Error("no composed task joins two tables")
	}
	off := composedOpts
	off.Composed = Composed{}
	if n := len(composedTasks(generate(t, off))); n != 0 {
		t.Errorf("Share 0 wrote %d composed tasks", n)
	}
}

// TestComposedTasksProve proves composed tasks of the built-in corpus in
// the real sandbox: the reference passes and every wrong solution of the
// proof fails (Validate), each solution that skips one step fails, and
// the weak solver (the first step only) scores 0.
func TestComposedTasksProve(t *testing.T) {
	ins, paths := corpus(t)
	all, err := New(composedOpts).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	ts := composedTasks(all)
	pick := []schemas.Task{}
	seen := map[string]bool{}
	for _, task := range ts {
		name := TemplateName(&task)
		if !seen[name] || (task.Steps >= 4 && !seen[name+"4"]) {
			pick = append(pick, task)
			seen[name], seen[name+"4"] = true, seen[name+"4"] || task.Steps >= 4
		}
	}
	b := checkstest.Backend(t, 0)
	ctx := context.Background()
	for _, task := range pick {
		t.Run(task.ID, func(t *testing.T) {
			reason, why, err := ValidateTask(ctx, b, &task, paths)
			if err != nil {
				t.Fatal(err)
			}
			if reason != "" {
				t.Fatalf("%s (%d steps): dropped %s: %s\n%s", TemplateName(&task), task.Steps, reason, why, task.Query)
			}
			skips := SkipSolutions(&task)
			if len(skips) != task.Steps+1 {
				t.Fatalf("%d skip solutions for %d steps", len(skips), task.Steps)
			}
			weak := scoreSkips(t, b, &task, paths)
			if weak != 0 {
				t.Errorf("the weak solver scores %v, want 0", weak)
			}
		})
	}
}

// scoreSkips plays each skip solution and requires the checks to reject
// it; it returns the weak solver's score.
func scoreSkips(t *testing.T, b proof.Backend, task *schemas.Task, paths map[string]string) float64 {
	t.Helper()
	passing, err := ProveSkips(context.Background(), b, task, paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(passing) > 0 {
		t.Errorf("the checks accept %s", strings.Join(passing, ", "))
	}
	for _, p := range passing {
		if p == "first_step_only" {
			return 1
		}
	}
	return 0
}

// hollow is task with a step that does nothing put first in its chain:
// the solution that skips it is the reference, which passes.
func hollow(task schemas.Task) schemas.Task {
	ref := *task.Reference
	ref.Steps = append([]schemas.RefStep{ref.Steps[0], {Thought: "Keep every row.", Code: "df = df[df.index == df.index]\nprint(len(df))"}}, ref.Steps[1:]...)
	task.Reference, task.Steps = &ref, task.Steps+1
	return task
}

// TestComposedTaskWithAHollowStepIsDropped: a composed task one of whose
// steps changes nothing fails its proof with skip_step_passes, naming the
// step, though its reference passes.
func TestComposedTaskWithAHollowStepIsDropped(t *testing.T) {
	ins, paths := corpus(t)
	opts := composedOpts
	opts.Include = []string{"table.chain"}
	all, err := New(opts).Generate(context.Background(), ins[:8])
	if err != nil {
		t.Fatal(err)
	}
	ts := composedTasks(all)
	if len(ts) == 0 {
		t.Fatal("no composed task on the corpus's first files")
	}
	task := hollow(ts[0])
	reason, why, err := ValidateTask(context.Background(), checkstest.Backend(t, 0), &task, paths)
	if err != nil {
		t.Fatal(err)
	}
	if reason != DropSkipPasses || !strings.Contains(why, "skip_1") {
		t.Errorf("a hollow step: %q (%s), want %s naming skip_1", reason, why, DropSkipPasses)
	}
}

// TestComposedDepth: every composed task has at least Depth steps.
func TestComposedDepth(t *testing.T) {
	opts := composedOpts
	opts.Composed.Depth = 4
	ts := composedTasks(generate(t, opts))
	if len(ts) == 0 {
		t.Fatal("no composed task of depth 4 on the built-in corpus")
	}
	for _, task := range ts {
		if task.Steps < 4 {
			t.Errorf("%s: %d steps, want at least 4", task.ID, task.Steps)
		}
	}
}

// TestMessyTablesKeepTheirTemplates: with every slot of a table file
// given to composed tasks, a table with mixed date layouts or amounts with
// thousands separators still gets a task of the templates that deal with
// its mess.
func TestMessyTablesKeepTheirTemplates(t *testing.T) {
	opts := composedOpts
	opts.Composed.Share = 1
	ins, _ := corpus(t)
	all, err := New(opts).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	messy := 0
	for _, in := range ins {
		c := newCtx(1, []generators.Input{in}, nil)
		if !slices.Contains(tableTypes, in.File.Type) || !hasMess(c) {
			continue
		}
		messy++
		if !slices.ContainsFunc(all, func(task schemas.Task) bool {
			return len(task.Files) == 1 && task.Files[0].ID == in.File.ID && slices.Contains(messTemplates, TemplateName(&task))
		}) {
			t.Errorf("%s has mess but no task of %v", in.File.Name, messTemplates)
		}
	}
	if messy == 0 {
		t.Fatal("no messy table in the built-in corpus")
	}
}
