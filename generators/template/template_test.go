package template

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"synth/checks"
	"synth/schemas"
)

func TestGenerateDeterministic(t *testing.T) {
	a := generate(t, Options{Seed: 3})
	b := generate(t, Options{Seed: 3})
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatal("same seed and files gave different tasks")
	}
	if len(a) < 16 {
		t.Fatalf("only %d tasks", len(a))
	}
	ids := map[string]bool{}
	type outUse struct{ id, twin, lang string }
	outs := map[string]outUse{}
	for _, task := range a {
		if ids[task.ID] {
			t.Errorf("duplicate id %s", task.ID)
		}
		ids[task.ID] = true
		if err := checks.Validate(&task); err != nil {
			t.Error(err)
		}
		if task.Reference == nil || len(task.Reference.Steps) == 0 || task.Reference.Answer == "" {
			t.Errorf("%s (%s): no reference", task.ID, task.Generator)
		}
		if !strings.HasPrefix(task.Generator, "template:") || !strings.Contains(task.Generator, "@") {
			t.Errorf("%s: generator %q", task.ID, task.Generator)
		}
		if strings.Contains(task.Query, "{out") || strings.Contains(task.Query, "{OUT") || strings.Contains(task.Reference.Answer, "{OUT") {
			t.Errorf("%s: unreplaced placeholder in %q", task.ID, task.Query)
		}
		for _, o := range task.Outputs {
			if !strings.Contains(task.Query, "./"+o) {
				t.Errorf("%s: query does not state ./%s: %q", task.ID, o, task.Query)
			}
			// Only the languages of one task (one writer, input and set
			// of checks) share an output name.
			cj, _ := json.Marshal(task.Checks)
			twin := task.Generator + fmt.Sprint(task.Files) + string(cj)
			if prev, ok := outs[o]; ok && (prev.twin != twin || prev.lang == task.Lang) {
				t.Errorf("%s and %s share output %s", prev.id, task.ID, o)
			}
			outs[o] = outUse{task.ID, twin, task.Lang}
		}
	}
}

func TestLangsAndInclude(t *testing.T) {
	tasks := generate(t, Options{Seed: 1, Langs: []string{"zh"}, Include: []string{"table.dedup", "text."}})
	if len(tasks) == 0 {
		t.Fatal("no tasks")
	}
	for _, task := range tasks {
		if task.Lang != "zh" {
			t.Errorf("%s: lang %s", task.ID, task.Lang)
		}
		if !strings.HasPrefix(task.Generator, "template:table.dedup@") && !strings.HasPrefix(task.Generator, "template:text.") {
			t.Errorf("include let through %s", task.Generator)
		}
	}
}

func TestPerFile(t *testing.T) {
	tasks := generate(t, Options{Seed: 1, Langs: []string{"en"}, PerFile: 1})
	per := map[string]map[string]bool{}
	for _, task := range tasks {
		if len(task.Files) != 1 {
			continue
		}
		id := task.Files[0].ID
		if per[id] == nil {
			per[id] = map[string]bool{}
		}
		per[id][task.Generator] = true
	}
	for id, gens := range per {
		if len(gens) > 1 {
			t.Errorf("file %s got %d templates with per_file 1", id[:8], len(gens))
		}
	}
}

func TestAvailable(t *testing.T) {
	ok, skipped := Available(map[string]bool{"pandas": true})
	if len(ok) == 0 {
		t.Fatal("no template available with the core set")
	}
	for _, line := range skipped {
		if !strings.Contains(line, "needs Python module") {
			t.Errorf("skip line %q", line)
		}
	}
	all := Templates()
	if len(ok)+len(skipped) != len(all) {
		t.Fatalf("%d ok + %d skipped != %d", len(ok), len(skipped), len(all))
	}
	cats := map[string]bool{}
	for _, in := range all {
		cats[in.Category] = true
	}
	_ = schemas.Categories
}

func TestReport(t *testing.T) {
	tasks := generate(t, Options{Seed: 1})
	r := Report(tasks, nil)
	for _, want := range []string{"## Per category", "| data_analysis |", "| csv |", "| xlsx |", "| txt |", "| zh |", "template:table.dedup@1"} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
}

func TestParquetNeedsPyarrow(t *testing.T) {
	tasks := generate(t, Options{Seed: 1, Langs: []string{"en"}})
	n := 0
	for _, task := range tasks {
		if len(task.Files) == 1 && task.Files[0].Type == "parquet" {
			n++
			if !slices.Contains(task.Requires, "pyarrow") {
				t.Errorf("%s on parquet does not require pyarrow", task.Generator)
			}
		}
	}
	if n < 5 {
		t.Fatalf("only %d tasks on the parquet file", n)
	}
	without := generate(t, Options{Seed: 1, Langs: []string{"en"}, PythonModules: map[string]bool{"pandas": true}})
	for _, task := range without {
		if len(task.Files) == 1 && task.Files[0].Type == "parquet" {
			t.Fatalf("%s kept without pyarrow", task.Generator)
		}
	}
}

func TestCoverage(t *testing.T) {
	tasks := generate(t, Options{Seed: 1, Langs: []string{"en"}})
	cats, types, groups := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, task := range tasks {
		cats[task.Category] = true
		groups[task.Subcategory] = true
		for _, f := range task.Files {
			types[f.Type] = true
		}
	}
	for _, c := range schemas.Categories {
		if !cats[c] {
			t.Errorf("no task in category %s", c)
		}
	}
	if len(types) < 10 {
		t.Errorf("tasks cover %d file types, want at least 10: %v", len(types), types)
	}
	if len(groups) < 12 {
		t.Errorf("tasks cover %d groups, want 12: %v", len(groups), groups)
	}
	if n := len(Templates()); n < 60 {
		t.Errorf("%d templates, want at least 60", n)
	}
}
