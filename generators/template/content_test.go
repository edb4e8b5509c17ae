package template

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"synth/checks"
	"synth/checks/checkstest"
	"synth/generators"
	"synth/proof"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// solution is a way to answer a task other than its reference: the
// reference's code with edits (a hurried analyst's slip), then steps that
// rewrite what it wrote (OUT names the task's first output), or steps of
// its own.
type solution struct {
	name    string
	replace []string // old, new pairs applied to the reference's code
	steps   []string // run after the reference's steps (or alone with own)
	own     bool     // steps replace the reference's
	answer  string   // the final answer; the reference's when empty
}

// plays reports whether sol passes every check of task, and the checks'
// messages; it fails the test when sol's code does not run.
func plays(t *testing.T, b proof.Backend, task *schemas.Task, paths map[string]string, sol solution) (bool, string) {
	t.Helper()
	ref := &schemas.Reference{Answer: task.Reference.Answer}
	if sol.answer != "" {
		ref.Answer = sol.answer
	}
	if !sol.own {
		for _, st := range task.Reference.Steps {
			code := st.Code
			for i := 0; i+1 < len(sol.replace); i += 2 {
				if !strings.Contains(code, sol.replace[i]) {
					continue
				}
				code = strings.ReplaceAll(code, sol.replace[i], sol.replace[i+1])
			}
			ref.Steps = append(ref.Steps, schemas.RefStep{Code: code})
		}
	}
	out := ""
	if len(task.Outputs) > 0 {
		out = task.Outputs[0]
	}
	var all []string
	for _, st := range task.Reference.Steps {
		all = append(all, st.Code)
	}
	for _, s := range sol.steps {
		s = strings.ReplaceAll(s, "TASK_CODE", py(strings.Join(all, "\n")))
		ref.Steps = append(ref.Steps, schemas.RefStep{Code: "OUT = " + py(out) + "\n" + s})
	}
	var inputs []proof.Input
	for _, f := range task.Files {
		inputs = append(inputs, proof.Input{Name: f.Name, Path: paths[f.ID]})
	}
	p, err := proof.Play(context.Background(), b, task, ref, inputs, filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Failed != "" {
		t.Fatalf("%s: %s", sol.name, p.Failed)
	}
	rs, err := checks.Verify(context.Background(), b, []checks.Case{p.Case})
	if err != nil {
		t.Fatal(err)
	}
	ok := true
	var msgs []string
	for _, r := range rs[0] {
		ok = ok && r.OK
		if !r.OK {
			msgs = append(msgs, r.Message)
		}
	}
	return ok, strings.Join(msgs, "; ")
}

// judge generates the tasks of tmpl over ins, proves them, and plays each
// wrong solution (which must fail a check) and each right one by another
// method (which must pass) on the first task.
func judge(t *testing.T, ins []generators.Input, tmpl string, wrong, right []solution) *schemas.Task {
	t.Helper()
	return judgeTask(t, firstTask(t, ins, tmpl), inputPaths(ins), tmpl, wrong, right)
}

// firstTask is the first English task of tmpl over ins (seed 1).
func firstTask(t *testing.T, ins []generators.Input, tmpl string) *schemas.Task {
	t.Helper()
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{tmpl}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) == 0 {
		t.Fatalf("no %s task", tmpl)
	}
	return &tasks[0]
}

// judgeTask proves task and plays each wrong solution (which must fail a
// check) and each right one by another method (which must pass) on it.
func judgeTask(t *testing.T, task *schemas.Task, paths map[string]string, tmpl string, wrong, right []solution) *schemas.Task {
	t.Helper()
	if v := validateAll(t, []schemas.Task{*task}, paths); len(v.Kept) != 1 {
		t.Fatalf("%s: the task does not prove: %v", tmpl, v.Why)
	}
	b := checkstest.Backend(t, 0)
	for _, s := range wrong {
		if ok, _ := plays(t, b, task, paths, s); ok {
			t.Errorf("%s: wrong solution %q passes", tmpl, s.name)
		}
	}
	for _, s := range right {
		if ok, why := plays(t, b, task, paths, s); !ok {
			t.Errorf("%s: right solution %q fails: %s", tmpl, s.name, why)
		}
	}
	return task
}

// Steps that rewrite a csv output: right shape, wrong values.
const (
	zeroNumbers = "import pandas as pd\nd = pd.read_csv(OUT)\nfor c in d.select_dtypes('number').columns:\n    d[c] = 0\nd.to_csv(OUT, index=False)"
	emptyCells  = "import pandas as pd\nd = pd.read_csv(OUT)\nfor c in d.columns[1:]:\n    d[c] = None\nd.to_csv(OUT, index=False)"
	shuffleRows = "import pandas as pd\nd = pd.read_csv(OUT)\nd = d.sample(frac=1, random_state=3)\nd.to_csv(OUT, index=False)"
	// shuffleValues shuffles the values of the last numeric column alone.
	shuffleValues = "import pandas as pd\nd = pd.read_csv(OUT)\nc = d.select_dtypes('number').columns[-1]\nd[c] = d[c].sample(frac=1, random_state=3).values\nif (d[c] == pd.read_csv(OUT)[c]).all():\n    d[c] = d[c][::-1].values\nd.to_csv(OUT, index=False)"
	roundTwo      = "import pandas as pd\nd = pd.read_csv(OUT)\nd.round(2).to_csv(OUT, index=False)"
)

func retailInput(t *testing.T) []generators.Input {
	return []generators.Input{writeFile(t, t.TempDir(), "retail.csv", "csv", []byte(retailCSV()))}
}

// TestPivotChecksEveryCell: a pivot is judged cell by cell against
// pandas' pivot of the real input; mean for sum, zeros, empty cells and
// one column's values shuffled fail; rows in another order, rounded to
// cents, or a pivot made with the csv module pass.
func TestPivotChecksEveryCell(t *testing.T) {
	pyenvtest.Python(t)
	judge(t, retailInput(t), "table.pivot",
		[]solution{
			{name: "mean for sum", replace: []string{"aggfunc='sum'", "aggfunc='mean'"}},
			{name: "count for sum", replace: []string{"aggfunc='sum'", "aggfunc='count'"}},
			{name: "all zeros", steps: []string{zeroNumbers}},
			{name: "empty cells", steps: []string{emptyCells}},
			{name: "one column shuffled", steps: []string{shuffleValues}},
		},
		[]solution{
			{name: "rows in another order", steps: []string{shuffleRows}},
			{name: "rounded to cents", steps: []string{roundTwo}},
			{name: "the csv module", own: true, steps: []string{pivotByHand}},
		})
}

// pivotByHand pivots the task's input with the csv module, reading the
// row, column and value names from the reference's pivot_table call.
const pivotByHand = `import csv, os, re, glob
src = glob.glob('data/*.csv')[0]
rows = list(csv.DictReader(open(src)))
code = TASK_CODE
r, c, v = re.search(r"index=\"([^\"]+)\", columns=\"([^\"]+)\", values=\"([^\"]+)\"", code).groups()
cols = sorted({x[c] for x in rows})
cells = {}
for x in rows:
    key = (x[r], x[c])
    cells[key] = cells.get(key, 0.0) + float(x[v])
os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow([r] + cols)
    for k in sorted({x[r] for x in rows}):
        w.writerow([k] + [round(cells.get((k, cc), 0.0), 6) for cc in cols])
`

// TestDescribeChecksEveryCell: a describe table is judged cell by cell
// against pandas' describe() of the real input.
func TestDescribeChecksEveryCell(t *testing.T) {
	pyenvtest.Python(t)
	judge(t, retailInput(t), "table.describe",
		[]solution{
			{name: "population std", steps: []string{describeEdit + "d.loc[d[k] == 'std', cols] = src[cols].std(ddof=0).values\nd.to_csv(OUT, index=False)"}},
			{name: "min and max swapped", steps: []string{describeEdit + "lo, hi = d[d[k] == 'min'].index[0], d[d[k] == 'max'].index[0]\nd.loc[[lo, hi], cols] = d.loc[[hi, lo], cols].values\nd.to_csv(OUT, index=False)"}},
			{name: "median for mean", steps: []string{describeEdit + "d.loc[d[k] == 'mean', cols] = src[cols].median().values\nd.to_csv(OUT, index=False)"}},
			{name: "one column right, the last all zeros", steps: []string{describeEdit + "d[cols[-1]] = 0\nd.to_csv(OUT, index=False)"}},
			{name: "empty cells", steps: []string{emptyCells}},
		},
		[]solution{
			{name: "the statistics module, other labels", own: true, steps: []string{describeByHand}},
			{name: "rounded to cents", steps: []string{roundTwo}},
		})
}

// TestDescribeSmallScale: on a column of rates (0.1 to 0.2) the
// population std written in full is a wrong answer (it is within 1% of the
// sample's); a table rounded to two or four decimals passes, and one
// rounded to one decimal (0.2 for a mean of 0.156) fails.
func TestDescribeSmallScale(t *testing.T) {
	pyenvtest.Python(t)
	body := genRows("state,rate", 50, func(i int) string { return fmt.Sprintf("S%02d,%.3f", i, 0.1+float64((i*37)%101)/1000) })
	ins := []generators.Input{writeFile(t, t.TempDir(), "obesity.csv", "csv", []byte(body))}
	judge(t, ins, "table.describe",
		[]solution{
			{name: "population std", steps: []string{describeEdit + "d.loc[d[k] == 'std', cols] = src[cols].std(ddof=0).values\nd.to_csv(OUT, index=False)"}},
			{name: "rounded to one decimal", steps: []string{describeEdit + "d[cols] = d[cols].round(1)\nd.to_csv(OUT, index=False)"}},
		},
		[]solution{
			{name: "four decimals", steps: []string{describeEdit + "d[cols] = d[cols].round(4)\nd.to_csv(OUT, index=False)"}},
			{name: "two decimals", steps: []string{describeEdit + "d[cols] = d[cols].round(2)\nd.to_csv(OUT, index=False)"}},
		})
}

// describeEdit reads the describe table (d, its label column k, its
// statistic columns cols) and the input (src).
const describeEdit = "import pandas as pd, glob\nd = pd.read_csv(OUT)\nk = d.columns[0]\ncols = list(d.columns[1:])\nsrc = pd.read_csv(glob.glob('data/*.csv')[0])\n"

// describeByHand computes the statistics with the statistics module and
// labels the quartiles q1, median and q3.
const describeByHand = `import csv, os, re, glob, statistics
rows = list(csv.DictReader(open(glob.glob('data/*.csv')[0])))
cols = re.findall(r'"([^"]+)"', re.search(r"df\[(\[[^\]]*\])\]\.describe", TASK_CODE).group(1))
def quart(xs, q):
    xs = sorted(xs)
    pos = (len(xs) - 1) * q
    lo = int(pos)
    return xs[lo] + (xs[min(lo + 1, len(xs) - 1)] - xs[lo]) * (pos - lo)
stats = {}
for c in cols:
    xs = [float(x[c]) for x in rows if x[c] != '']
    stats[c] = [len(xs), statistics.mean(xs), statistics.stdev(xs), min(xs), quart(xs, .25), statistics.median(xs), quart(xs, .75), max(xs)]
os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['statistic'] + cols)
    for i, name in enumerate(['count', 'mean', 'std', 'min', 'q1', 'median', 'q3', 'max']):
        w.writerow([name] + [stats[c][i] for c in cols])
`

// TestConvertKeepsValues: a converted table holds the input's values in
// its order; the right type, header and row count with zeros, or the rows
// shuffled, fail.
func TestConvertKeepsValues(t *testing.T) {
	pyenvtest.Python(t)
	task := judge(t, retailInput(t), "table.convert",
		[]solution{
			{name: "all zeros", steps: []string{convertEdit + "for c in d.select_dtypes('number').columns:\n    d[c] = 0\n" + convertSave}},
			{name: "rows shuffled", steps: []string{convertEdit + "d = d.sample(frac=1, random_state=3)\n" + convertSave}},
			{name: "a column's values shuffled", steps: []string{convertEdit + "c = d.select_dtypes('number').columns[-1]\nd[c] = d[c].sample(frac=1, random_state=3).values\n" + convertSave}},
			{name: "empty cells", steps: []string{convertEdit + "for c in d.columns[1:]:\n    d[c] = None\n" + convertSave}},
		},
		[]solution{
			{name: "written again from what was written", steps: []string{convertEdit + convertSave}},
		})
	if !strings.HasSuffix(task.Outputs[0], ".xlsx") && !strings.HasSuffix(task.Outputs[0], ".json") {
		t.Fatalf("convert writes %s", task.Outputs[0])
	}
}

const (
	convertEdit = "import pandas as pd\nd = pd.read_excel(OUT) if OUT.endswith('.xlsx') else pd.read_json(OUT)\n"
	convertSave = "d.to_excel(OUT, index=False) if OUT.endswith('.xlsx') else d.to_json(OUT, orient='records')"
)

// contentTemplates are the templates whose checks compare content with
// what the reference's code makes of the real input.
var contentTemplates = []string{"table.pivot", "table.describe", "table.convert", "ml.cluster", "image.size", "web.datatable", "text.years", "text.topword", "table.sort", "table.filter", "table.dedup", "table.dropna", "table.fillna", "table.iqr", "table.topn", "html.links"}

// TestContentChecksProveOnCorpus: on every file of the built-in corpus
// (each of its input types), the reference passes the content checks and
// the mutant and every adversary fail them.
func TestContentChecksProveOnCorpus(t *testing.T) {
	pyenvtest.Python(t)
	ins, paths := corpus(t)
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: contentTemplates}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	tasks = proofSample(tasks, 1)
	t.Logf("%d tasks", len(tasks))
	if len(tasks) < len(contentTemplates) {
		t.Fatalf("%d tasks for %d templates", len(tasks), len(contentTemplates))
	}
	if v := validateAll(t, tasks, paths); len(v.Kept) != len(tasks) {
		for _, task := range tasks {
			if v.Why[task.ID] != "" {
				t.Logf("dropped: %s %s on %s", task.ID, task.Generator, filesOf(task))
			}
		}
		t.Fatalf("%d of %d tasks hold", len(v.Kept), len(tasks))
	}
}

// TestImageSizeInOrder: width and height are checked in their order: the
// two swapped, or given both ways, fail; labelled in another order, or as
// 120x90, pass.
func TestImageSizeInOrder(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeImage(t, t.TempDir(), "photo.png", photo(120, 90), "png")}
	printSize := "from PIL import Image\nimport glob\nprint(Image.open(glob.glob('data/*')[0]).size)"
	says := func(name, answer string) solution {
		return solution{name: name, own: true, steps: []string{printSize}, answer: answer}
	}
	judge(t, ins, "image.size",
		[]solution{
			says("swapped", "The image is 90 pixels wide and 120 pixels high."),
			says("swapped, unlabelled", "The image is 90 x 120."),
			says("both ways", "It is 120 x 90 or 90 x 120."),
			says("labels swapped", "width: 90, height: 120"),
		},
		[]solution{
			says("as a dimension", "The image is 120x90 pixels."),
			says("height first, labelled", "It is 90 pixels high and 120 pixels wide."),
			says("as a tuple", "Image.size is (120, 90): width 120, height 90."),
			says("chinese", "图片宽 120 像素，高 90 像素。"),
		})
}

// clusterEdit reads the clustered output into d (its label column c).
const clusterEdit = "import pandas as pd, numpy as np\nd = pd.read_csv(OUT)\nc = 'cluster'\nrng = np.random.default_rng(7)\n"

// TestClusterQuality: a k-means labelling is judged by the variance its
// clusters explain on the real input; random labels, labels shuffled
// across rows and zeroed features fail; another seed and renamed labels
// pass.
func TestClusterQuality(t *testing.T) {
	pyenvtest.Python(t)
	judge(t, retailInput(t), "ml.cluster",
		[]solution{
			{name: "random labels", steps: []string{clusterEdit + "d[c] = rng.integers(0, 3, len(d))\nd.to_csv(OUT, index=False)"}},
			{name: "labels shuffled across rows", steps: []string{clusterEdit + "d[c] = rng.permutation(d[c].values)\nd.to_csv(OUT, index=False)"}},
			{name: "labels by row number", steps: []string{clusterEdit + "d[c] = np.arange(len(d)) % 3\nd.to_csv(OUT, index=False)"}},
			{name: "features zeroed", steps: []string{clusterEdit + "for x in d.select_dtypes('number').columns:\n    d[x] = 0 if x != c else d[x]\nd.to_csv(OUT, index=False)"}},
		},
		[]solution{
			{name: "another seed", replace: []string{"random_state=42", "random_state=5"}},
			{name: "labels renamed", steps: []string{clusterEdit + "d[c] = d[c].map({0: 'A', 1: 'B', 2: 'C'})\nd.to_csv(OUT, index=False)"}},
		})
}

// htmlEdit reads the input table (d) for a page of its own; htmlSave
// writes d as the page OUT.
const (
	htmlEdit = "import pandas as pd, glob, os\nd = pd.read_csv(glob.glob('data/*.csv')[0])\nos.makedirs(os.path.dirname(OUT), exist_ok=True)\n"
	htmlSave = "open(OUT, 'w').write('<html><body>' + d.to_html(index=False) + '</body></html>')"
)

// TestDataTableCellText: an HTML table is judged by its cells' text
// against the input: empty cells, zeros and a column's values shuffled
// fail; a page written by hand with the csv module, rows in another order,
// passes.
func TestDataTableCellText(t *testing.T) {
	pyenvtest.Python(t)
	judge(t, retailInput(t), "web.datatable",
		[]solution{
			{name: "empty cells", own: true, steps: []string{htmlEdit + "for c in d.columns:\n    d[c] = ''\n" + htmlSave}},
			{name: "all zeros", own: true, steps: []string{htmlEdit + "for c in d.select_dtypes('number').columns:\n    d[c] = 0\n" + htmlSave}},
			{name: "a column shuffled", own: true, steps: []string{htmlEdit + "c = d.select_dtypes('number').columns[-1]\nd[c] = d[c].sample(frac=1, random_state=3).values\n" + htmlSave}},
			{name: "two columns swapped", own: true, steps: []string{htmlEdit + "a, b = d.columns[4], d.columns[5]\nd[[a, b]] = d[[b, a]].values\n" + htmlSave}},
		},
		[]solution{
			{name: "rows in another order", own: true, steps: []string{htmlEdit + "d = d.sample(frac=1, random_state=3)\n" + htmlSave}},
			{name: "by hand with the csv module", own: true, steps: []string{htmlByHand}},
		})
}

// TestDataTableLineBreaks: a cell holding a line break (a quoted newline
// in a spreadsheet pasted as CSV) is whitespace in a page: pandas' to_html,
// which writes it as the two characters \n, and a page written by hand
// pass; the cell cut at its line break fails.
func TestDataTableLineBreaks(t *testing.T) {
	pyenvtest.Python(t)
	var b strings.Builder
	b.WriteString("sector,y2000,y2001,y2002\n")
	for i, s := range []string{"Timber", "\"Machinery and \nequipment\"", "Textiles", "\"Pulp, paper, publishing\nand printing\"", "Chemicals", "Recycling", "Food and drink", "\"Cement, lime, concrete \nand stones\""} {
		fmt.Fprintf(&b, "%s,%d,%d,%d\n", s, 100+i*7, 90+i*5, 80+i*3)
	}
	ins := []generators.Input{writeFile(t, t.TempDir(), "sectors.csv", "csv", []byte(b.String()))}
	judge(t, ins, "web.datatable",
		[]solution{
			{name: "cells cut at their line break", own: true, steps: []string{htmlEdit + "d['sector'] = d['sector'].str.split('\\n').str[0]\n" + htmlSave}},
		},
		[]solution{
			{name: "pandas' to_html", own: true, steps: []string{htmlEdit + htmlSave}},
			{name: "by hand with the csv module", own: true, steps: []string{htmlByHand}},
		})
}

const htmlByHand = `import csv, glob, html, os
rows = list(csv.reader(open(glob.glob('data/*.csv')[0])))
os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, 'w') as f:
    f.write('<!DOCTYPE html><html><body><table>\n<tr>' + ''.join('<th>%s</th>' % html.escape(h) for h in rows[0]) + '</tr>\n')
    for r in rows[1:]:
        f.write('<tr>' + ''.join('<td>%s</td>' % html.escape(x) for x in r) + '</tr>\n')
    f.write('</table></body></html>\n')
`

// wordsText has a clear ranking of long words (analysis 9, pipeline 7,
// dataset 5, function 3, variable 2) and five years.
func wordsText() string {
	var b strings.Builder
	parts := []struct {
		w string
		n int
	}{{"analysis", 9}, {"pipeline", 7}, {"dataset", 5}, {"function", 3}, {"variable", 2}}
	years := []string{"1888", "1923", "1999", "2004", "2019"}
	k := 0
	for _, p := range parts {
		for i := range p.n {
			b.WriteString("We ran the " + p.w + " on a day. ")
			if k < len(years) && i == 0 {
				b.WriteString("It was in " + years[k] + ". ")
				k++
			}
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

func wordsInput(t *testing.T) []generators.Input {
	return []generators.Input{writeFile(t, t.TempDir(), "notes.txt", "txt", []byte(wordsText()))}
}

// TestYearsStated: the years are matched as numbers the answer states,
// and every year it names counts: every year 1500-2099 in a file name or
// as a list, or one year too many, fails; the years in another order or
// in Chinese pass.
func TestYearsStated(t *testing.T) {
	pyenvtest.Python(t)
	var every []string
	for y := 1500; y < 2100; y++ {
		every = append(every, fmt.Sprint(y))
	}
	says := func(name, answer string) solution {
		return solution{name: name, own: true, steps: []string{"print('done')"}, answer: answer}
	}
	judge(t, wordsInput(t), "text.years",
		[]solution{
			says("every year in a file name", "The years are listed in output/years_"+strings.Join(every, "_")+".txt"),
			says("every year listed", "The years are "+strings.Join(every, ", ")+"."),
			says("one year too many", "The years mentioned are 1888, 1923, 1999, 2004 and 2019; the text also names 1950."),
			says("one year missing", "The years mentioned are 1888, 1923, 1999 and 2004."),
		},
		[]solution{
			says("another order", "2019, 2004, 1999, 1923 and 1888 are the years in the text."),
			says("chinese", "文中提到的年份有：1888、1923、1999、2004、2019。"),
			says("the bounds repeated", "Between 1500 and 2099 the text mentions 1888, 1923, 1999, 2004 and 2019."),
		})
}

// TestTopWordsRanked: the three words are checked in their order and
// naming more candidates fails: the whole text pasted, the ranking out of
// order, or the fourth word added fail; another wording passes.
func TestTopWordsRanked(t *testing.T) {
	pyenvtest.Python(t)
	says := func(name, answer string) solution {
		return solution{name: name, own: true, steps: []string{"print('done')"}, answer: answer}
	}
	judge(t, wordsInput(t), "text.topword",
		[]solution{
			says("the whole text", "analysis (9), pipeline (7), dataset (5): "+wordsText()),
			says("out of order", "The top words are pipeline (7), analysis (9) and dataset (5)."),
			says("counts swapped", "The top words are analysis (7), pipeline (9) and dataset (5)."),
			says("the fourth for the third", "The top words are analysis (9), pipeline (7) and function (5)."),
			says("stale counts", "The top words are analysis (6), pipeline (5) and dataset (4)."),
		},
		[]solution{
			says("a numbered list", "1. analysis (9 times)\n2. pipeline (7 times)\n3. dataset (5 times)"),
		})
}

// TestSortAndFilterKeepValues: a sorted or filtered table is compared
// with the reference's rows: zeros (still sorted), a column's values
// shuffled, or >= for > fail; the rows written by the csv module pass.
func TestSortAndFilterKeepValues(t *testing.T) {
	pyenvtest.Python(t)
	judge(t, retailInput(t), "table.sort",
		[]solution{
			{name: "all zeros", steps: []string{zeroNumbers}},
			{name: "another column shuffled", steps: []string{"import pandas as pd\nd = pd.read_csv(OUT)\nd['Units Sold'] = d['Units Sold'][::-1].values\nd.to_csv(OUT, index=False)"}},
		},
		[]solution{
			{name: "rounded to cents", steps: []string{roundTwo}},
		})
	judge(t, retailInput(t), "table.filter",
		[]solution{
			{name: "all zeros", steps: []string{zeroNumbers}},
			{name: "empty cells", steps: []string{emptyCells}},
			{name: "or for and", replace: []string{") & (df[", ") | (df["}},
			{name: "an id column shuffled", steps: []string{"import pandas as pd\nd = pd.read_csv(OUT)\nd['Retailer ID'] = d['Retailer ID'][::-1].values\nd.to_csv(OUT, index=False)"}},
		},
		[]solution{
			{name: "rows in another order", steps: []string{shuffleRows}},
		})
}

// gappyInput is air quality data with gaps in rainfall and its first five
// records repeated at the end.
func gappyInput(t *testing.T) []generators.Input {
	body := airCSV()
	lines := strings.Split(strings.TrimSpace(body), "\n")
	body += strings.Join(lines[1:6], "\n") + "\n"
	return []generators.Input{writeFile(t, t.TempDir(), "air.csv", "csv", []byte(body))}
}

// TestCleaningKeepsValues: dedup, dropna and fillna outputs are compared
// with the reference's rows: the right row count with zeros, or a column's
// values moved, or gaps filled with 0, fail; rows in another order pass.
func TestCleaningKeepsValues(t *testing.T) {
	pyenvtest.Python(t)
	ins := gappyInput(t)
	for _, tmpl := range []string{"table.dedup", "table.dropna", "table.fillna"} {
		judge(t, ins, tmpl,
			[]solution{
				{name: "all zeros", steps: []string{zeroNumbers}},
				{name: "a column's values moved", steps: []string{"import pandas as pd\nd = pd.read_csv(OUT)\nd['wind_kmh'] = d['wind_kmh'][::-1].values\nd.to_csv(OUT, index=False)"}},
			},
			[]solution{
				{name: "rows in another order", steps: []string{shuffleRows}},
			})
	}
	judge(t, ins, "table.fillna",
		[]solution{{name: "gaps filled with 0, the median answered", replace: []string{".fillna(med)", ".fillna(0)"}}}, nil)
}

// TestCorrToItsDigits: a correlation is stated to the digits written: the
// neighbouring value in the third decimal (Spearman's 0.092 for a Pearson
// r of 0.0912), printed and stated, fails; r rounded to two or four
// decimals passes (the answer check's tolerance is 0.0051, for two).
func TestCorrToItsDigits(t *testing.T) {
	pyenvtest.Python(t)
	ins := retailInput(t)
	task := firstTask(t, ins, "table.corr")
	m := regexp.MustCompile(`-?\d+\.\d{3}`).FindStringIndex(task.Reference.Answer)
	if m == nil {
		t.Fatalf("the answer %q states no r", task.Reference.Answer)
	}
	r := task.Checks[0].Number.Value // r itself, to six decimals
	says := func(name, printed string, v float64, format string) solution {
		return solution{name: name, replace: []string{", 3))", printed}, answer: task.Reference.Answer[:m[0]] + fmt.Sprintf(format, v) + task.Reference.Answer[m[1]:]}
	}
	judgeTask(t, task, inputPaths(ins), "table.corr",
		[]solution{says("the next value in the third decimal", " + 0.001, 3))", r+0.001, "%.3f")},
		[]solution{says("two decimals", ", 2))", r, "%.2f"), says("four decimals", ", 4))", r, "%.4f")})
}

// TestDataTableBlankAndRepeatedNames: a page written by hand keeps a
// blank column name blank and a repeated one repeated, as the file has
// them; pandas names them Unnamed: 1 and v.1. Both pass; a page whose
// header row is the first data row fails.
func TestDataTableBlankAndRepeatedNames(t *testing.T) {
	pyenvtest.Python(t)
	var b strings.Builder
	b.WriteString("k,,v,v\n")
	for i := range 8 {
		fmt.Fprintf(&b, "r%d,%d,%d,%d\n", i, i*3, i*5+1, i*7+2)
	}
	ins := []generators.Input{writeFile(t, t.TempDir(), "names.csv", "csv", []byte(b.String()))}
	byHandFromData := strings.Replace(htmlByHand, "rows[0]) + '</tr>\\n')\n    for r in rows[1:]:", "rows[1]) + '</tr>\\n')\n    for r in rows[2:]:", 1)
	if byHandFromData == htmlByHand {
		t.Fatal("the wrong page is the right one")
	}
	judge(t, ins, "web.datatable",
		[]solution{{name: "the first data row as the header", own: true, steps: []string{byHandFromData}}},
		[]solution{
			{name: "pandas' to_html", own: true, steps: []string{htmlEdit + htmlSave}},
			{name: "by hand with the csv module", own: true, steps: []string{htmlByHand}},
		})
}

// TestConvertUTCDates: timestamps written in UTC (2004-01-05T00:00:00Z)
// converted as plain dates (2004-01-05) are the same moments and pass; the
// dates a day off fail.
func TestConvertUTCDates(t *testing.T) {
	pyenvtest.Python(t)
	var b strings.Builder
	b.WriteString("Date;VIXClose;VIXHigh\n")
	for i := range 12 {
		fmt.Fprintf(&b, "2004-01-%02dT00:00:00Z;%d.%d;%d.%d\n", i+5, 17+i%4, i, 18+i%5, i)
	}
	ins := []generators.Input{writeFile(t, t.TempDir(), "vix.csv", "csv", []byte(b.String()))}
	write := "import pandas as pd, glob, os\nd = pd.read_csv(glob.glob('data/*.csv')[0], sep=';')\nos.makedirs(os.path.dirname(OUT) or '.', exist_ok=True)\n%s\nd.to_excel(OUT, index=False) if OUT.endswith('.xlsx') else d.to_json(OUT, orient='records') if OUT.endswith('.json') else d.to_csv(OUT, index=False)"
	judge(t, ins, "table.convert",
		[]solution{{name: "dates a day off", own: true, steps: []string{fmt.Sprintf(write, "d['Date'] = (pd.to_datetime(d['Date']) + pd.Timedelta(days=1)).dt.strftime('%Y-%m-%d')")}}},
		[]solution{{name: "plain dates", own: true, steps: []string{fmt.Sprintf(write, "d['Date'] = pd.to_datetime(d['Date']).dt.strftime('%Y-%m-%d')")}}})
}

// TestScatterRStatedAfterACount: a scatter task's answer may name the
// number of pairs before r ("Pearson r over 80 pairs: -0.434"): r is the
// value it states, and passes; another r fails.
func TestScatterRStatedAfterACount(t *testing.T) {
	pyenvtest.Python(t)
	ins := retailInput(t)
	task := firstTask(t, ins, "chart.scatter")
	var r float64
	for _, c := range task.Checks {
		if c.Number != nil {
			r = c.Number.Value
		}
	}
	says := func(v float64) string {
		return fmt.Sprintf("Chart in ./%s; Pearson r over 80 pairs: %.3f.", task.Outputs[0], v)
	}
	count := "print(len(df))"
	judgeTask(t, task, inputPaths(ins), "chart.scatter",
		[]solution{{name: "another r", steps: []string{count}, answer: says(r + 0.01)}},
		[]solution{{name: "r after the count of pairs", steps: []string{count}, answer: says(r)}})
}
