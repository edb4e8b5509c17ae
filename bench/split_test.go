package bench

import (
	"fmt"
	"testing"

	"synth/schemas"
)

func splitFixture() []schemas.Task {
	var tasks []schemas.Task
	cats := []string{schemas.CategoryData, schemas.CategoryText, schemas.CategoryMath}
	for i := range 60 {
		t := schemas.Task{ID: fmt.Sprintf("t%02d", i), Category: cats[i%3]}
		if t.Category != schemas.CategoryMath {
			// three tasks per file, and every fourth task also reads a shared file
			t.Files = []schemas.TaskFile{{ID: fmt.Sprintf("f%02d", i/3)}}
			if i%4 == 0 {
				t.Files = append(t.Files, schemas.TaskFile{ID: fmt.Sprintf("g%02d", i/12)})
			}
		}
		tasks = append(tasks, t)
	}
	return tasks
}

func TestSplitDisjointByFile(t *testing.T) {
	tasks := splitFixture()
	b, tr := Split(tasks, 0.3, 42)
	if len(b)+len(tr) != len(tasks) || len(b) == 0 || len(tr) == 0 {
		t.Fatalf("split %d/%d of %d", len(b), len(tr), len(tasks))
	}
	benchFiles := map[string]bool{}
	for _, t := range b {
		for _, f := range t.Files {
			benchFiles[f.ID] = true
		}
	}
	for _, task := range tr {
		for _, f := range task.Files {
			if benchFiles[f.ID] {
				t.Errorf("file %s feeds both the benchmark and training (task %s)", f.ID, task.ID)
			}
		}
	}
	perCat := map[string]int{}
	for _, t := range b {
		perCat[t.Category]++
	}
	if len(perCat) != 3 {
		t.Errorf("benchmark covers categories %v, want all three", perCat)
	}
}

func TestSplitDeterministic(t *testing.T) {
	ids := func(ts []schemas.Task) string {
		s := ""
		for _, t := range ts {
			s += t.ID + " "
		}
		return s
	}
	a, _ := Split(splitFixture(), 0.3, 7)
	b, _ := Split(splitFixture(), 0.3, 7)
	c, _ := Split(splitFixture(), 0.3, 8)
	if ids(a) != ids(b) {
		t.Fatal("same seed, different split")
	}
	if ids(a) == ids(c) {
		t.Fatal("another seed gave the same split: the seed is not used")
	}
}

func TestSplitNearTheFraction(t *testing.T) {
	// Ten files with 1..10 tasks each: 55 tasks, want about 16 in the benchmark.
	var tasks []schemas.Task
	for f := 1; f <= 10; f++ {
		for i := range f {
			tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("t%d-%d", f, i), Category: schemas.CategoryData, Files: []schemas.TaskFile{{ID: fmt.Sprintf("f%d", f)}}})
		}
	}
	for seed := int64(1); seed <= 20; seed++ {
		b, _ := Split(tasks, 0.3, seed)
		if len(b) < 12 || len(b) > 20 {
			t.Errorf("seed %d: %d benchmark tasks of 55, want about 16", seed, len(b))
		}
	}
}

// Each task asked in two languages: the benchmark holds one of them, the
// other enters neither side (it reads the benchmark's file).
func TestSplitOneLanguagePerTask(t *testing.T) {
	var tasks []schemas.Task
	for f := range 20 {
		for k := range 2 {
			for _, lang := range []string{"en", "zh"} {
				tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("t%d-%d-%s", f, k, lang), Lang: lang, Category: schemas.CategoryData,
					Generator: "template:x@1", Files: []schemas.TaskFile{{ID: fmt.Sprintf("f%d", f)}},
					Checks: []schemas.Check{{Kind: schemas.CheckAnswer, ContainsAll: []string{fmt.Sprint(k)}}}})
			}
		}
	}
	b, tr := Split(tasks, 0.3, 1)
	if len(b) == 0 {
		t.Fatal("empty benchmark")
	}
	seen := map[string]string{}
	langs := map[string]int{}
	for _, task := range b {
		key := task.Files[0].ID + task.Checks[0].ContainsAll[0]
		if other, ok := seen[key]; ok {
			t.Errorf("tasks %s and %s are one task in two languages, both in the benchmark", other, task.ID)
		}
		seen[key] = task.ID
		langs[task.Lang]++
	}
	if langs["en"] == 0 || langs["zh"] == 0 {
		t.Errorf("benchmark languages %v: the seed should pick both", langs)
	}
	if got, want := len(b)+len(tr), len(tasks)-len(b); got != want {
		t.Errorf("bench %d + train %d = %d, want every task but the %d dropped twins", len(b), len(tr), got, len(b))
	}
}

// Tasks pairing files (image.concat over every image) must not chain all
// files into one group: most files then could never reach the benchmark.
func TestSplitPairsDoNotChainEveryFile(t *testing.T) {
	var tasks []schemas.Task
	n := 30
	for f := range n {
		for k := range 3 {
			tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("t%d-%d", f, k), Category: schemas.CategoryMedia, Files: []schemas.TaskFile{{ID: fmt.Sprintf("f%02d", f)}}})
		}
		tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("pair%d", f), Category: schemas.CategoryMedia,
			Files: []schemas.TaskFile{{ID: fmt.Sprintf("f%02d", f)}, {ID: fmt.Sprintf("f%02d", (f+1)%n)}}})
	}
	b, tr := Split(tasks, 0.3, 3)
	side := map[string]string{}
	for _, set := range []struct {
		name  string
		tasks []schemas.Task
	}{{"bench", b}, {"train", tr}} {
		for _, task := range set.tasks {
			for _, f := range task.Files {
				if s, ok := side[f.ID]; ok && s != set.name {
					t.Errorf("file %s is read in %s and %s", f.ID, s, set.name)
				}
				side[f.ID] = set.name
			}
		}
	}
	benchFiles := 0
	for _, s := range side {
		if s == "bench" {
			benchFiles++
		}
	}
	if benchFiles < n/5 || benchFiles > n/2 {
		t.Errorf("%d of %d files in the benchmark, want about 30%%", benchFiles, n)
	}
	if dropped := len(tasks) - len(b) - len(tr); dropped > n/2 {
		t.Errorf("%d pair tasks dropped, more than half the pairs", dropped)
	}
}
