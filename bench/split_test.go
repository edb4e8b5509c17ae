package bench

import (
	"fmt"
	"strings"
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

// typedFixture is tasks over files of many types, few files for most, as a
// user's folder of real files is: the split by category alone could put
// every file of a rare type on one side. Each file has three tasks, by
// templates picked per file; template "csv.rare" reads only two csv files.
func typedFixture() []schemas.Task {
	perType := []struct {
		typ, category string
		files         int
	}{
		{"csv", schemas.CategoryData, 24}, {"xlsx", schemas.CategoryData, 3}, {"json", schemas.CategoryData, 4},
		{"pdf", schemas.CategoryText, 3}, {"docx", schemas.CategoryText, 3}, {"html", schemas.CategoryText, 5}, {"txt", schemas.CategoryText, 9},
		{"png", schemas.CategoryMedia, 6}, {"jpeg", schemas.CategoryMedia, 3}, {"wav", schemas.CategoryMedia, 3}, {"mp3", schemas.CategoryMedia, 4},
	}
	var tasks []schemas.Task
	for _, p := range perType {
		for f := range p.files {
			file := schemas.TaskFile{ID: fmt.Sprintf("%s-%02d", p.typ, f), Name: fmt.Sprintf("f%d.%s", f, p.typ), Type: p.typ}
			for k := range 3 {
				tmpl := fmt.Sprintf("template:%s.t%d@1", p.typ, (f+k)%5)
				if p.typ == "csv" && k == 0 && f < 2 {
					tmpl = "template:csv.rare@1"
				}
				tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("%s-%d", file.ID, k), Category: p.category, Generator: tmpl, Files: []schemas.TaskFile{file}})
			}
		}
	}
	// Tasks that read no file, of two templates.
	for i := range 10 {
		tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("math-%d", i), Category: schemas.CategoryMath, Generator: fmt.Sprintf("template:math.t%d@1", i%2)})
	}
	return tasks
}

// sidesOf counts, per file type ("" for no file) and per template, the
// tasks on each side: [training, benchmark].
func sidesOf(b, tr []schemas.Task) (types, templates map[string][2]int) {
	types, templates = map[string][2]int{}, map[string][2]int{}
	for s, ts := range [][]schemas.Task{tr, b} {
		for _, task := range ts {
			typ := ""
			if len(task.Files) > 0 {
				typ = task.Files[0].Type
			}
			c := types[typ]
			c[s]++
			types[typ] = c
			c = templates[task.Generator]
			c[s]++
			templates[task.Generator] = c
		}
	}
	return types, templates
}

// Every file type with files enough reaches both sides, for any seed, and
// so does every template that two or more csv files use.
func TestSplitEveryTypeOnBothSides(t *testing.T) {
	tasks := typedFixture()
	for seed := int64(1); seed <= 40; seed++ {
		b, tr := Split(tasks, 0.3, seed)
		types, templates := sidesOf(b, tr)
		for typ, c := range types {
			if c[0] == 0 || c[1] == 0 {
				t.Errorf("seed %d: type %q has %d training and %d benchmark tasks, want both", seed, typ, c[0], c[1])
			}
		}
		for tmpl, c := range templates {
			if !strings.HasPrefix(tmpl, "template:csv.") {
				continue // a type of 3 to 9 files cannot hold each of 5 templates on both sides
			}
			if c[0] == 0 || c[1] == 0 {
				t.Errorf("seed %d: template %s has %d training and %d benchmark tasks, want both", seed, tmpl, c[0], c[1])
			}
		}
		if n := len(b); n < len(tasks)/5 || n > len(tasks)*2/5 {
			t.Errorf("seed %d: %d of %d tasks in the benchmark, want about 30%%", seed, n, len(tasks))
		}
		assertDisjoint(t, b, tr)
	}
}

// A type whose share of the benchmark rounds to no task still has a file
// in it; asked for no benchmark, the split holds none out.
func TestSplitSmallShare(t *testing.T) {
	var tasks []schemas.Task
	for f := range 3 {
		tasks = append(tasks, schemas.Task{ID: fmt.Sprint("w", f), Category: schemas.CategoryMedia, Generator: "template:audio.x@1",
			Files: []schemas.TaskFile{{ID: fmt.Sprint("wav", f), Type: "wav"}}})
	}
	for seed := int64(1); seed <= 10; seed++ {
		b, tr := Split(tasks, 0.1, seed)
		if len(b) != 1 || len(tr) != 2 {
			t.Errorf("seed %d, fraction 0.1: %d benchmark and %d training tasks of 3 files, want 1 and 2", seed, len(b), len(tr))
		}
		var math []schemas.Task
		for i := range 3 {
			math = append(math, schemas.Task{ID: fmt.Sprint("m", i), Category: schemas.CategoryMath, Generator: "template:math.x@1"})
		}
		if b, _ := Split(math, 0.1, seed); len(b) != 1 {
			t.Errorf("seed %d, fraction 0.1: %d benchmark tasks of 3 that read no file, want 1", seed, len(b))
		}
		b, tr = Split(typedFixture(), 0, seed)
		if len(b) != 0 || len(tr) != len(typedFixture()) {
			t.Errorf("seed %d, fraction 0: %d benchmark tasks, want none", seed, len(b))
		}
	}
}

// A type whose files are all paired with a commoner type's (one group
// reads a txt and an md file) still reaches both sides.
func TestSplitPairedTypeOnBothSides(t *testing.T) {
	var tasks []schemas.Task
	for f := range 12 {
		txt := schemas.TaskFile{ID: fmt.Sprintf("txt%02d", f), Type: "txt"}
		for k := range 2 {
			tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("t%d-%d", f, k), Category: schemas.CategoryText, Generator: "template:text.a@1", Files: []schemas.TaskFile{txt}})
		}
		if f < 3 {
			md := schemas.TaskFile{ID: fmt.Sprintf("md%02d", f), Type: "md"}
			tasks = append(tasks, schemas.Task{ID: fmt.Sprint("pair", f), Category: schemas.CategoryText, Generator: "template:text.diff@1", Files: []schemas.TaskFile{txt, md}})
		}
	}
	for seed := int64(1); seed <= 40; seed++ {
		b, tr := Split(tasks, 0.3, seed)
		md := [2]int{}
		for s, ts := range [][]schemas.Task{tr, b} {
			for _, task := range ts {
				for _, f := range task.Files {
					if f.Type == "md" {
						md[s]++
					}
				}
			}
		}
		if md[0] == 0 || md[1] == 0 {
			t.Errorf("seed %d: md files in %d training and %d benchmark tasks, want both", seed, md[0], md[1])
		}
		assertDisjoint(t, b, tr)
	}
}

func assertDisjoint(t *testing.T, b, tr []schemas.Task) {
	t.Helper()
	inBench := map[string]bool{}
	for _, task := range b {
		for _, f := range task.Files {
			inBench[f.ID] = true
		}
	}
	for _, task := range tr {
		for _, f := range task.Files {
			if inBench[f.ID] {
				t.Errorf("file %s feeds both the benchmark and training (task %s)", f.ID, task.ID)
			}
		}
	}
}

// A type whose every group is in the stratum of a rarer type (each tsv
// file is joined with a file of a type read once) still reaches both
// sides.
func TestSplitTypeSpreadOverStrata(t *testing.T) {
	tasks := typedFixture()
	for i, other := range []string{"parquet", "gif", "webp"} {
		x := schemas.TaskFile{ID: fmt.Sprint("joined-tsv", i), Type: "tsv"}
		o := schemas.TaskFile{ID: fmt.Sprint("joined-", other), Type: other}
		for k := range 2 {
			tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("join%d-%d", i, k), Category: schemas.CategoryData, Generator: "template:table.join@1", Files: []schemas.TaskFile{x, o}})
		}
	}
	for seed := int64(1); seed <= 40; seed++ {
		b, tr := Split(tasks, 0.3, seed)
		joined := [2]int{}
		for s, ts := range [][]schemas.Task{tr, b} {
			for _, task := range ts {
				if task.Generator == "template:table.join@1" {
					joined[s]++
				}
			}
		}
		if joined[0] == 0 || joined[1] == 0 {
			t.Errorf("seed %d: joined tsv files in %d training and %d benchmark tasks, want both", seed, joined[0], joined[1])
		}
		assertDisjoint(t, b, tr)
	}
}

// A type whose every two files a pairing template reads (image.concat over
// four png files and a jpeg) still reaches both sides: the pairs do not
// chain all of its files into one group.
func TestSplitPairedFilesOfOneTypeOnBothSides(t *testing.T) {
	var files []schemas.TaskFile
	for f := range 4 {
		files = append(files, schemas.TaskFile{ID: fmt.Sprintf("png%d", f), Type: "png"})
	}
	files = append(files, schemas.TaskFile{ID: "jpeg0", Type: "jpeg"})
	var tasks []schemas.Task
	for i, f := range files {
		for k := range 1 + i%3 {
			tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("%s-%d", f.ID, k), Category: schemas.CategoryMedia, Generator: fmt.Sprintf("template:image.t%d@1", (i+k)%4), Files: []schemas.TaskFile{f}})
		}
		for _, g := range files[i+1:] {
			tasks = append(tasks, schemas.Task{ID: "concat-" + f.ID + "-" + g.ID, Category: schemas.CategoryMedia, Generator: "template:image.concat@1", Files: []schemas.TaskFile{f, g}})
		}
	}
	for i := range 40 {
		tasks = append(tasks, schemas.Task{ID: fmt.Sprint("csv", i), Category: schemas.CategoryData, Generator: fmt.Sprintf("template:table.t%d@1", i%5),
			Files: []schemas.TaskFile{{ID: fmt.Sprint("csvf", i/2), Type: "csv"}}})
	}
	for seed := int64(1); seed <= 40; seed++ {
		b, tr := Split(tasks, 0.2, seed)
		types, _ := sidesOf(b, tr)
		if c := types["png"]; c[0] == 0 || c[1] == 0 {
			t.Errorf("seed %d: png in %d training and %d benchmark tasks, want both", seed, c[0], c[1])
		}
		assertDisjoint(t, b, tr)
	}
}
