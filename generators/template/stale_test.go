package template

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/checks"
	"synth/checks/checkstest"
	"synth/proof"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// staleFamilies are the answer-checked templates whose stale answers
// TestStaleAnswersFail tries: one task each over the built-in corpus.
var staleFamilies = []string{
	"table.stat", "table.shape", "table.nunique", "table.missing", "table.topgroup",
	"text.topword", "text.wordcount", "text.lines", "text.summary",
	"pdf.pages", "pdf.wordcount", "docx.paragraphs", "image.size", "audio.duration",
}

// TestStaleAnswersFail: for each answer-checked template family (the
// first of its tasks over the corpus whose answer's numbers the
// perturbation moved; md.headings answers in words, which the battery
// does not restate, and is held by its own recomputed check), the
// reference's answer as first given, beside the outputs of its rerun on
// perturbed inputs and judged on those inputs (the battery's
// stale_answer case: a solver that ran its code on other data and stated
// the old answer), fails, and fails on a value recomputed from the
// inputs; the checks without their recomputed values accept it. A
// correct answer that states its number once, at the end, after a last
// cell that only printed "done", passes on the real inputs.
func TestStaleAnswersFail(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a task of each family in the sandbox")
	}
	python := pyenvtest.Python(t)
	b := checkstest.Backend(t, 2)
	have, err := ProbeModules(context.Background(), python, Modules())
	if err != nil {
		t.Fatal(err)
	}
	ins, paths := corpus(t)
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, PythonModules: have, Include: staleFamilies}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range staleFamilies {
		t.Run(fam, func(t *testing.T) {
			var (
				task  *schemas.Task
				ref   proof.Played
				bat   proof.Battery
				tried []string
			)
			for i := range tasks {
				if TemplateName(&tasks[i]) != fam {
					continue
				}
				var inputs []proof.Input
				for _, f := range tasks[i].Files {
					inputs = append(inputs, proof.Input{Name: f.Name, Path: paths[f.ID]})
				}
				store := filepath.Join(t.TempDir(), "artifacts")
				var err error
				ref, bat, err = proof.PlayBattery(context.Background(), b, &tasks[i], tasks[i].Reference, inputs, store)
				if err != nil {
					t.Fatal(err)
				}
				if ref.Failed != "" {
					t.Fatalf("%s: the reference failed: %s", tasks[i].ID, ref.Failed)
				}
				if bat.StaleAnswer != nil {
					task = &tasks[i]
					break
				}
				tried = append(tried, tasks[i].Files[0].Name)
			}
			if task == nil {
				t.Fatalf("no task whose answer's numbers the perturbation moved (tried %v)", tried)
			}
			stale := bat.StaleAnswer.Case
			weak := stale
			weak.Checks = slices.DeleteFunc(slices.Clone(stale.Checks), recomputes)
			correct := ref.Case
			correct.Answer = correctAnswer(task)
			correct.Messages = []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + correct.Answer}}
			correct.Observations = append(slices.Clone(ref.Printed), "done")
			rs, err := checks.Verify(context.Background(), b, []checks.Case{stale, weak, correct})
			if err != nil {
				t.Fatal(err)
			}
			msg := checks.FirstFailure(rs[0])
			if msg == "" {
				t.Fatalf("%s: the stale answer %q passes every check on the perturbed inputs", task.ID, stale.Answer)
			}
			rejected := false
			for k, r := range rs[0] {
				rejected = rejected || !r.OK && recomputes(stale.Checks[k])
			}
			if !rejected {
				t.Errorf("%s: the stale answer %q fails (%s), but no recomputed value rejects it", task.ID, stale.Answer, msg)
			}
			if m := checks.FirstFailure(rs[1]); m != "" {
				t.Logf("%s: without the recomputed values the stale answer still fails: %s", task.ID, m)
			}
			if m := checks.FirstFailure(rs[2]); m != "" {
				t.Errorf("%s: the correct answer %q fails: %s", task.ID, correct.Answer, m)
			}
		})
	}
}

// recomputes reports whether c holds the answer to a value it computes
// from the inputs: answer_states (recomputed), or table.stat's
// stated_to_its_digits.
func recomputes(c schemas.Check) bool {
	return strings.Contains(c.Code, "answer_states(") || strings.Contains(c.Code, "stated_to_its_digits(") || strings.Contains(c.Code, "computed from the inputs")
}

// correctAnswer is a correct answer to task stated once, at the end,
// after words of its own.
func correctAnswer(task *schemas.Task) string {
	return "I checked it twice in the last cells. " + task.Reference.Answer
}

// TestSortFirstValueExact: table.sort's first-row value, when a whole
// number, is checked exactly: the battery's answer_off (27954 for 27953,
// within a relative 0.1%) fails every table.sort task over the corpus.
func TestSortFirstValueExact(t *testing.T) {
	if testing.Short() {
		t.Skip("proves table.sort tasks in the sandbox")
	}
	b := checkstest.Backend(t, 2)
	ins, paths := corpus(t)
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.sort"}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	whole := 0
	for i := range tasks {
		c := slices.IndexFunc(tasks[i].Checks, func(c schemas.Check) bool { return c.Number != nil })
		if c < 0 || tasks[i].Checks[c].Number.RelTol != 0 {
			continue
		}
		whole++
		p, err := ProveTask(context.Background(), b, &tasks[i], paths)
		if err != nil {
			t.Fatal(err)
		}
		if r, why := p.Reason(); r != "" {
			t.Errorf("%s (%s): %s: %s", tasks[i].ID, tasks[i].Reference.Answer, r, why)
		}
	}
	if whole == 0 {
		t.Fatal("no table.sort task over the corpus has a whole first value")
	}
}
