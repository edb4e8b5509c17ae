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
