package template

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"synth/generators"
	"synth/pyenv"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// changelog is a CHANGELOG.md in the keep-a-changelog style: versions and
// dates in its level-2 headings, level-2 and level-3 headings of the same
// names (Added, Fixed), a title and link definitions.
const changelog = `# Changelog
All notable changes to this project are documented here.

## [0.11.0] - 2024-03-07
## Added
- a table finder.
## Fixed
- a crash on empty pages.

## [0.10.4] - 2024-02-10
### Added
- ` + "`page.search`" + ` options.
### Fixed
- rotated text.

## [0.10.3] - 2023-10-26
### Changed
- faster char parsing.
### Fixed
- missing glyphs.

[0.11.0]: https://example.org/compare/v0.10.4...v0.11.0
`

func says(name, answer string) solution {
	return solution{name: name, own: true, steps: []string{"print('done')"}, answer: answer}
}

// TestHeadingsListedExactly: the level-2 headings are checked as a list in
// their order: the level-3 headings added, two swapped, one left out or
// the title and every heading stuffed in fail; the list with its versions
// and dates as printed, a Markdown parser's text without brackets, or a
// Chinese answer pass.
func TestHeadingsListedExactly(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeFile(t, t.TempDir(), "CHANGELOG.md", "md", []byte(changelog))}
	judge(t, ins, "md.headings",
		[]solution{
			says("level-3 headings added", "The second-level headings are: [0.11.0] - 2024-03-07; Added; Fixed; [0.10.4] - 2024-02-10; Added; Fixed; [0.10.3] - 2023-10-26; Changed; Fixed."),
			says("two swapped", "The second-level headings are: [0.11.0] - 2024-03-07; Fixed; Added; [0.10.4] - 2024-02-10; [0.10.3] - 2023-10-26."),
			says("one left out", "The second-level headings are: [0.11.0] - 2024-03-07; Added; Fixed; [0.10.4] - 2024-02-10."),
			says("every heading", "Changelog; [0.11.0] - 2024-03-07; Added; Fixed; [0.10.4] - 2024-02-10; Added; Fixed; [0.10.3] - 2023-10-26; Changed; Fixed."),
			says("nothing", "I could not find a clear answer; maybe 7."),
		},
		[]solution{
			{name: "as printed, by a regex of its own", own: true, steps: []string{"import re, glob\ntext = open(glob.glob('data/*.md')[0]).read()\nprint(re.findall(r'(?m)^## (.+)$', text))"},
				answer: "The second-level headings are: [0.11.0] - 2024-03-07; Added; Fixed; [0.10.4] - 2024-02-10; [0.10.3] - 2023-10-26."},
			says("a parser's text, numbered", "1. 0.11.0 - 2024-03-07\n2. Added\n3. Fixed\n4. 0.10.4 - 2024-02-10\n5. 0.10.3 - 2023-10-26"),
			says("the title named once", "The Changelog has these level-2 headings: [0.11.0] - 2024-03-07, Added, Fixed, [0.10.4] - 2024-02-10 and [0.10.3] - 2023-10-26."),
			says("chinese", "二级标题有：[0.11.0] - 2024-03-07；Added；Fixed；[0.10.4] - 2024-02-10；[0.10.3] - 2023-10-26。"),
		})
}

// tiedWords is a text whose second and third most frequent long words tie
// (orange 11, october 7, december 7, november 5).
func tiedWords() string {
	var b strings.Builder
	for _, p := range []struct {
		w string
		n int
	}{{"orange", 11}, {"october", 7}, {"december", 7}, {"november", 5}, {"yellow", 2}} {
		for range p.n {
			b.WriteString("The " + p.w + " was sold. ")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestTopWordsTiesHaveNoOrder: two words of the same count may come in
// either order; a more frequent word after a less frequent one, or the
// fourth word for the third, fail.
func TestTopWordsTiesHaveNoOrder(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeFile(t, t.TempDir(), "fruit.txt", "txt", []byte(tiedWords()))}
	judge(t, ins, "text.topword",
		[]solution{
			says("the first after a tied one", "The top words are october (7), orange (11) and december (7)."),
			says("the fourth for the third", "The top words are orange (11), october (7) and november (5)."),
			says("ranks 2 to 4", "The top words are october (7), december (7) and november (5)."),
		},
		[]solution{
			says("october first", "The three most frequent words are orange (11), october (7), december (7)."),
			says("december first", "The three most frequent words are orange (11), december (7), october (7)."),
		})
}

// judgeWhere is judge on the first task of tmpl, over seeds 1 to 80, whose
// reference code holds code (a statistic, an aggregate).
func judgeWhere(t *testing.T, ins []generators.Input, tmpl, code string, wrong, right []solution) *schemas.Task {
	t.Helper()
	var task *schemas.Task
	for seed := int64(1); seed <= 80 && task == nil; seed++ {
		tasks, err := New(Options{Seed: seed, Langs: []string{"en"}, Include: []string{tmpl}}).Generate(context.Background(), ins)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tasks {
			for _, st := range tasks[i].Reference.Steps {
				if strings.Contains(st.Code, code) && task == nil {
					task = &tasks[i]
				}
			}
		}
	}
	if task == nil {
		t.Fatalf("no %s task whose code holds %q", tmpl, code)
	}
	return judgeTask(t, task, inputPaths(ins), tmpl, wrong, right)
}

// sharesCSV is a table of counties with a share column whose largest
// values lie 0.003 apart (0.8281, 0.8253, 0.8222, ...).
func sharesCSV() string {
	var b strings.Builder
	b.WriteString("county,college\n")
	for i := range 30 {
		fmt.Fprintf(&b, "C%02d,%.4f\n", i, 0.8281-0.0028*float64((i*7)%30)-0.0001*float64(i%3))
	}
	return b.String()
}

// TestStatStatedToItsDigits: a statistic is checked to the digits the
// answer gives: the second largest share stated as 0.825 or 0.82, or the
// mean for the max, fail; 0.83 (two decimals, as asked), 0.828, the
// value as numpy prints it, and the value named with a count after it
// (共 30 个县) pass.
func TestStatStatedToItsDigits(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeFile(t, t.TempDir(), "counties.csv", "csv", []byte(sharesCSV()))}
	printMax := "import pandas as pd, glob\nprint(pd.read_csv(glob.glob('data/*.csv')[0])['college'].nlargest(3))"
	sol := func(name, answer string) solution {
		return solution{name: name, own: true, steps: []string{printMax}, answer: answer}
	}
	judgeWhere(t, ins, "table.stat", ".max()",
		[]solution{
			sol("second largest, to three digits", "The maximum of college is 0.825."),
			sol("second largest, to four digits", "The maximum of college is 0.8253."),
			sol("second largest, rounded down", "The maximum of college is 0.82."),
		},
		[]solution{
			sol("two decimals", "The maximum of college is 0.83."),
			sol("three decimals", "The maximum of college is 0.828."),
			sol("as printed", "The maximum of college is 0.8281."),
			sol("chinese", "college 的最大值为 0.83。"),
			sol("chinese, a count after it", "college 的最大值为 0.83，共 30 个县。"),
			sol("a count after it", "The maximum of college is 0.83. 30 counties were compared."),
		})
}

// imgEdit reads the input picture as floats (a), over white where it is
// transparent, the factor the task asks
// (f), for steps that write OUT with save(b).
const imgEdit = `from PIL import Image
import numpy as np, glob, os, re
im = Image.open(glob.glob('data/*')[0]).convert('RGBA')
a = np.asarray(Image.alpha_composite(Image.new('RGBA', im.size, 'white'), im).convert('RGB'), dtype=float)
f = float(re.search(r'enhance\(([\d.]+)\)', TASK_CODE).group(1))
os.makedirs(os.path.dirname(OUT), exist_ok=True)
def save(b):
    Image.fromarray(np.clip(b, 0, 255).astype(np.uint8)).save(OUT)
`

// TestEnhanceAsAsked: brightness and contrast are judged by the change
// PIL's ImageEnhance makes on the same input, measured alike: darker, a
// copy, or lowered contrast fail; the same factor applied with numpy (its
// own rounding, its own grey mean) passes; brighter but upside down fails
// (it does not look like PIL's result).
func TestEnhanceAsAsked(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeImage(t, t.TempDir(), "photo.png", photo(160, 120), "png")}
	judge(t, ins, "image.brightness",
		[]solution{
			{name: "darker", own: true, steps: []string{imgEdit + "save(a / f)"}},
			{name: "a copy", own: true, steps: []string{imgEdit + "save(a)"}},
			{name: "three times the change", own: true, steps: []string{imgEdit + "save(a * (1 + 3 * (f - 1)))"}},
			{name: "brighter, upside down", own: true, steps: []string{imgEdit + "save((a * f)[::-1])"}},
		},
		[]solution{
			{name: "numpy", own: true, steps: []string{imgEdit + "save(a * f)"}},
		})
	judge(t, ins, "image.contrast",
		[]solution{
			{name: "lowered", own: true, steps: []string{imgEdit + "m = a.mean()\nsave(m + (a - m) / f)"}},
			{name: "a copy", own: true, steps: []string{imgEdit + "save(a)"}},
		},
		[]solution{
			{name: "numpy, around the mean of the channels", own: true, steps: []string{imgEdit + "m = a.mean()\nsave(m + (a - m) * f)"}},
		})
}

// silhouette is a black disc on a transparent background with a soft,
// antialiased rim: white and black as a viewer shows it, with greys only
// at the rim, like scikit-image's horse.png.
func silhouette(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			dx, dy := float64(x-w/2), float64(y-h/2)
			d := math.Sqrt(dx*dx+dy*dy) - float64(min(w, h))/3
			a := math.Max(0, math.Min(1, 0.5-d/2))
			img.SetNRGBA(x, y, color.NRGBA{A: uint8(255 * a)})
		}
	}
	return img
}

// TestEnhanceOnASilhouette: on a black and white picture PIL's brightness
// and contrast hardly move its grey levels, so no task asks for them (a
// copy would pass); and enhance_as_asked, should such a task come (from
// the LLM writer), passes PIL's own result (it failed a fixed margin of 3
// grey levels: 171.4 against 170.7 on scikit-image's horse.png) and a
// copy, and fails the change the other way.
func TestEnhanceOnASilhouette(t *testing.T) {
	pyenvtest.Python(t)
	in := writeImage(t, t.TempDir(), "horse.png", silhouette(160, 140), "png")
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"image.brightness", "image.contrast"}}).Generate(context.Background(), []generators.Input{in})
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		t.Errorf("%s asked of a silhouette: %s", task.Generator, task.Query)
	}
	code := `import sys
sys.path.insert(0, 'checks')
import checks as c
from PIL import Image, ImageEnhance
import numpy as np
src = sys.argv[1]
base = c.flatten(c._open_image(src))
a = np.asarray(base, dtype=float)
for kind, f, E in (('brightness', 1.3, ImageEnhance.Brightness), ('contrast', 1.8, ImageEnhance.Contrast)):
    m = a.mean() if kind == 'contrast' else 0
    outs = {'pil': E(base).enhance(f), 'copy': base, 'other way': Image.fromarray(np.clip(m + (a - m) / f, 0, 255).astype(np.uint8))}
    for name, im in outs.items():
        im.save('/tmp/_sil_out.png')
        print(kind, name, c.enhanced_as_asked('/tmp/_sil_out.png', src, kind, f)[0])
`
	cmd := exec.Command(pyenv.Sandbox.Python(), "-c", strings.ReplaceAll(code, "/tmp/_sil_out.png", filepath.Join(t.TempDir(), "out.png")), in.Path)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "brightness pil True\nbrightness copy True\nbrightness other way False\ncontrast pil True\ncontrast copy True\ncontrast other way False"
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("enhanced_as_asked on a silhouette:\n%s\nwant\n%s", got, want)
	}
}

// reportLines are the lines of a one-page report, long enough that half
// of it is plainly not all of it.
var reportLines = [][]string{
	{"Quarterly", "inspection", "summary", "prepared"},
	{"Residential", "buildings", "examined", "carefully"},
	{"Structural", "defects", "recorded", "thoroughly"},
	{"Electrical", "hazards", "corrected", "promptly"},
	{"Plumbing", "failures", "documented", "separately"},
	{"Ventilation", "problems", "persisted", "throughout"},
	{"Inspectors", "recommended", "additional", "funding"},
	{"Municipal", "council", "approved", "budget"},
	{"Contractors", "submitted", "competitive", "proposals"},
	{"Residents", "expressed", "considerable", "gratitude"},
}

// TestPDFTextCovered: an extracted text is judged by how much of the
// PDF's text it holds, as pypdf or PyMuPDF read it: half the text, its
// first line, or the PDF's raw bytes (alone or after the text) fail; PyMuPDF's text and pypdf's
// layout mode (other spacing) pass.
func TestPDFTextCovered(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeFile(t, t.TempDir(), "report.pdf", "pdf", spacelessPDF(reportLines))}
	const open = "import glob, os\nsrc = glob.glob('data/*.pdf')[0]\nos.makedirs(os.path.dirname(OUT), exist_ok=True)\n"
	const pypdfText = open + "from pypdf import PdfReader\ntext = '\\n'.join(p.extract_text() for p in PdfReader(src).pages)\n"
	judge(t, ins, "pdf.extract",
		[]solution{
			{name: "the first half", own: true, steps: []string{pypdfText + "open(OUT, 'w').write(text[:len(text) // 2])"}},
			{name: "the first line", own: true, steps: []string{pypdfText + "open(OUT, 'w').write(text.splitlines()[0])"}},
			{name: "the raw bytes", own: true, steps: []string{open + "open(OUT, 'w').write(open(src, 'rb').read().decode('latin-1'))"}},
			{name: "the text and the raw bytes", own: true, steps: []string{pypdfText + "open(OUT, 'w').write(text + '\\n' + open(src, 'rb').read().decode('latin-1'))"}},
		},
		[]solution{
			{name: "PyMuPDF", own: true, steps: []string{open + "import fitz\nopen(OUT, 'w').write('\\n'.join(p.get_text() for p in fitz.open(src)))"}},
			{name: "pypdf's layout mode", own: true, steps: []string{open + "from pypdf import PdfReader\nopen(OUT, 'w').write('\\n'.join(p.extract_text(extraction_mode='layout') for p in PdfReader(src).pages))"}},
		})
}

// budgetText holds "government" in five sentences, one with a decimal
// (6.8) and one ending in a question mark, and "governments" in another.
const budgetText = `The government budget grew by 6.8 percent this year. Did the government plan for it?
Many governments did not! The government said the plan works.
Citizens asked questions about spending. The new government program starts in May.
Farmers want quick help from the government. Nobody knows the answer yet.
`

// TestSentencesWhole: the sentences are compared, words and all, with
// the ones the reference finds in the sandbox: "governments" matched too,
// a decimal split as a sentence end (the right count, a sentence cut
// short), the right count of other sentences, each with the next one, or
// sentences run together fail; the sentences split by hand, with other spacing, pass.
func TestSentencesWhole(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeFile(t, t.TempDir(), "budget.txt", "txt", []byte(budgetText))}
	const read = "import re, glob, os\nflat = ' '.join(open(glob.glob('data/*.txt')[0]).read().split())\nos.makedirs(os.path.dirname(OUT), exist_ok=True)\n"
	const save = "open(OUT, 'w').write('\\n'.join(hits) + '\\n')"
	judge(t, ins, "text.sentences",
		[]solution{
			{name: "substring match", own: true, steps: []string{read + "sents = re.split(r'(?<=[.!?])\\s+', flat)\nhits = [s for s in sents if 'government' in s.lower()]\n" + save}},
			{name: "a decimal ends a sentence", own: true, steps: []string{read + "sents = [s.strip() for s in re.findall(r'[^.!?]+[.!?]', flat)]\nhits = [s for s in sents if re.search(r'(?i)\\bgovernment\\b', s)]\n" + save}},
			{name: "the right count of other sentences", own: true, steps: []string{read + "sents = re.split(r'(?<=[.!?])\\s+', flat)\nn = len([s for s in sents if re.search(r'(?i)\\bgovernment\\b', s)])\nhits = [s + ' (government)' for s in sents[-n:]]\n" + save}},
			{name: "each with the sentence after it", own: true, steps: []string{read + "sents = re.split(r'(?<=[.!?])\\s+', flat) + ['']\nhits = [s + ' ' + sents[i + 1] for i, s in enumerate(sents[:-1]) if re.search(r'(?i)\\bgovernment\\b', s)]\n" + save}},
			{name: "split on '. ' only", own: true, steps: []string{read + "sents = flat.split('. ')\nhits = [s for s in sents if re.search(r'(?i)\\bgovernment\\b', s)]\n" + save}},
		},
		[]solution{
			{name: "split by hand", own: true, steps: []string{read + "sents, cur = [], ''\nfor i, ch in enumerate(flat):\n    cur += ch\n    if ch in '.!?' and (i + 1 == len(flat) or flat[i + 1] == ' '):\n        sents.append(cur.strip())\n        cur = ''\nhits = [s for s in sents if re.search(r'(?i)\\bgovernment\\b', s)]\n" + save}},
			{name: "other spacing", own: true, steps: []string{read + "sents = re.split(r'(?<=[.!?]) ', flat)\nhits = ['  ' + s.replace(' ', '  ') + ' ' for s in sents if re.search(r'(?i)\\bgovernment\\b', s)]\n" + save}},
		})
}

// TestGroupByEveryCell: a per-group table is compared cell by cell with
// pandas' groupby of the real input: the sum for the mean (or the mean
// for the sum), zeros, or a column's values shuffled fail; pivot_table, rows in another
// order, or values rounded to cents pass.
func TestGroupByEveryCell(t *testing.T) {
	pyenvtest.Python(t)
	judge(t, retailInput(t), "table.groupby",
		[]solution{
			{name: "the sum for the mean, or the mean for the sum", replace: sumMeanSwap},
			{name: "all zeros", steps: []string{zeroNumbers}},
			{name: "values shuffled", steps: []string{shuffleValues}},
		},
		[]solution{
			{name: "pivot_table", own: true, steps: []string{groupByPivot}},
			{name: "rows in another order", steps: []string{shuffleRows}},
			{name: "rounded to cents", steps: []string{roundTwo}},
		})
}

// sumMeanSwap turns a sum into a mean and a mean into a sum.
var sumMeanSwap = []string{"].sum()\n", "].total()\n", "].mean()\n", "].sum()\n", "].total()\n", "].mean()\n"}

// groupByPivot makes the task's per-group table with pivot_table, reading
// the key, value and aggregate from the reference's groupby call.
const groupByPivot = `import pandas as pd, glob, os, re
key, val, agg = re.search(r'groupby\("([^"]+)", as_index=False\)\["([^"]+)"\]\.(\w+)\(\)', TASK_CODE).groups()
d = pd.read_csv(glob.glob('data/*.csv')[0])
os.makedirs(os.path.dirname(OUT), exist_ok=True)
d.pivot_table(index=key, values=val, aggfunc=agg).reset_index().to_csv(OUT, index=False)
`

// TestMonthlyEveryCell: a monthly table is compared cell by cell with the
// reference's monthly aggregate of the real input: the months shifted by
// one, zeros, or the median for the aggregate fail; a resample that
// writes each month as its last day, or rows in another order, pass.
func TestMonthlyEveryCell(t *testing.T) {
	pyenvtest.Python(t)
	judge(t, retailInput(t), "table.monthly",
		[]solution{
			{name: "the median for the aggregate", replace: []string{"].sum()\n", "].median()\n", "].mean()\n", "].median()\n"}},
			{name: "all zeros", steps: []string{zeroNumbers}},
			{name: "months shifted by one", steps: []string{"import pandas as pd\nd = pd.read_csv(OUT)\nd['month'] = (pd.PeriodIndex(d['month'], freq='M') + 1).astype(str)\nd.to_csv(OUT, index=False)"}},
		},
		[]solution{
			{name: "a resample", own: true, steps: []string{monthlyResample}},
			{name: "rows in another order", steps: []string{shuffleRows}},
		})
}

// monthlyResample makes the monthly table with resample, which writes a
// month as its last day (2020-01-31).
const monthlyResample = `import pandas as pd, glob, os, re
date, val, agg = re.search(r'to_datetime\(df\["([^"]+)"\]\).*?\["([^"]+)"\]\.(\w+)\(\)', TASK_CODE, re.S).groups()
d = pd.read_csv(glob.glob('data/*.csv')[0])
d[date] = pd.to_datetime(d[date])
m = getattr(d.set_index(date)[val].resample('ME'), agg)().reset_index()
m.columns = ['month', val]
os.makedirs(os.path.dirname(OUT), exist_ok=True)
m.to_csv(OUT, index=False)
`

// ordersInputs are orders (unit price, quantity) and the shipments of
// some of them, joined on order_ref.
func ordersInputs(t *testing.T) []generators.Input {
	dir := t.TempDir()
	var o, s strings.Builder
	o.WriteString("order_ref,customer,unit_price,quantity\n")
	s.WriteString("order_ref,carrier,weight_kg\n")
	for i := range 24 {
		fmt.Fprintf(&o, "R%03d,cust%d,%d.25,%d\n", i, i%7, 3+i%5, 1+i%4)
		if i%3 != 0 {
			fmt.Fprintf(&s, "R%03d,k%d,%d.5\n", i, i%3, 2+i%9)
		}
	}
	return []generators.Input{writeFile(t, dir, "orders.csv", "csv", []byte(o.String())), writeFile(t, dir, "shipments.csv", "csv", []byte(s.String()))}
}

// TestAddColAndJoinEveryCell: a table with a new column, and a joined
// table, are compared cell by cell with what pandas makes of the real
// inputs: the sum for the product, the new column shuffled (its mean
// unchanged), another column zeroed, a joined column shuffled, or a left
// join fail; the csv module's rows pass.
func TestAddColAndJoinEveryCell(t *testing.T) {
	pyenvtest.Python(t)
	ins := ordersInputs(t)
	judge(t, ins[:1], "table.addcol",
		[]solution{
			{name: "the sum for the product", replace: []string{"] * df[", "] + df["}},
			{name: "the new column shuffled", steps: []string{"import pandas as pd\nd = pd.read_csv(OUT)\nc = d.columns[-1]\nd[c] = d[c][::-1].values\nd.to_csv(OUT, index=False)"}},
			{name: "another column zeroed", steps: []string{"import pandas as pd\nd = pd.read_csv(OUT)\nd['quantity'] = 0\nd.to_csv(OUT, index=False)"}},
		},
		[]solution{
			{name: "the csv module", own: true, steps: []string{addColByHand}},
		})
	judge(t, ins, "table.join",
		[]solution{
			{name: "a joined column shuffled", steps: []string{"import pandas as pd\nd = pd.read_csv(OUT)\nd['carrier'] = d['carrier'][::-1].values\nd.to_csv(OUT, index=False)"}},
			{name: "weights zeroed", steps: []string{"import pandas as pd\nd = pd.read_csv(OUT)\nd['weight_kg'] = 0\nd.to_csv(OUT, index=False)"}},
		},
		[]solution{
			{name: "the right table merged with the left", own: true, steps: []string{"import pandas as pd, os\nl, r = pd.read_csv('data/orders.csv'), pd.read_csv('data/shipments.csv')\nos.makedirs(os.path.dirname(OUT), exist_ok=True)\nr.merge(l, on='order_ref').to_csv(OUT, index=False)"}},
		})
}

// addColByHand adds the product column with the csv module, reading its
// name and factors from the reference's code.
const addColByHand = `import csv, glob, os, re
new, a, b = re.search(r'df\["([^"]+)"\] = df\["([^"]+)"\] \* df\["([^"]+)"\]', TASK_CODE).groups()
rows = list(csv.DictReader(open(glob.glob('data/*.csv')[0])))
for r in rows:
    r[new] = float(r[a]) * float(r[b])
os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
`

// TestDatesEveryCell: a table with its dates rewritten is compared cell
// by cell with the reference's conversion: day and month swapped, or
// another column zeroed, fail; datetime.strptime row by row passes.
func TestDatesEveryCell(t *testing.T) {
	pyenvtest.Python(t)
	var b strings.Builder
	b.WriteString("ticket,opened,amount\n")
	for i := range 30 {
		fmt.Fprintf(&b, "T%02d,%02d/%02d/2021,%d.5\n", i, 1+(i*5)%28, 1+i%12, 10+i*3)
	}
	ins := []generators.Input{writeFile(t, t.TempDir(), "tickets.csv", "csv", []byte(b.String()))}
	judge(t, ins, "table.dates",
		[]solution{
			{name: "day and month swapped", replace: []string{"format='%d/%m/%Y'", "format='%m/%d/%Y', errors='coerce'"}},
			{name: "another column zeroed", steps: []string{"import pandas as pd\nd = pd.read_csv(OUT)\nd['amount'] = 0\nd.to_csv(OUT, index=False)"}},
		},
		[]solution{
			{name: "strptime row by row", own: true, steps: []string{datesByHand}},
		})
}

const datesByHand = `import csv, glob, os
from datetime import datetime
rows = list(csv.DictReader(open(glob.glob('data/*.csv')[0])))
for r in rows:
    r['opened'] = datetime.strptime(r['opened'], '%d/%m/%Y').strftime('%Y-%m-%d')
os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
`

// answersTemplates are the templates whose checks this file's tests hold.
var answersTemplates = []string{"md.headings", "table.fillna", "text.topword", "text.sentences", "table.stat", "pdf.extract", "image.brightness", "image.contrast",
	"table.groupby", "table.monthly", "table.addcol", "table.join", "table.dates"}

// TestAnswersChecksProveOnCorpus: on the built-in corpus, the reference
// of every task of answersTemplates passes its checks, and its mutant and
// every adversary fail them.
func TestAnswersChecksProveOnCorpus(t *testing.T) {
	pyenvtest.Python(t)
	ins, paths := corpus(t)
	tasks, err := New(Options{Seed: 1, Langs: []string{"en", "zh"}, Include: answersTemplates}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	tasks = proofSample(tasks, 1)
	t.Logf("%d tasks", len(tasks))
	if v := validateAll(t, tasks, paths); len(v.Kept) != len(tasks) {
		for _, task := range tasks {
			if v.Why[task.ID] != "" {
				t.Logf("dropped: %s %s on %s: %s", task.ID, task.Generator, filesOf(task), v.Why[task.ID])
			}
		}
		t.Fatalf("%d of %d tasks hold", len(v.Kept), len(tasks))
	}
}

// TestSentencesSkipAbbreviations: where a sentence with the word may end
// in an abbreviation (Dr. Brown), splitters disagree on the sentences, so
// the word is not asked.
func TestSentencesSkipAbbreviations(t *testing.T) {
	text := "The harvest report came early. Dr. Brown checked the harvest twice. The harvest was large!\nFarmers praised the harvest. Prices fell after the harvest.\n"
	ins := []generators.Input{writeFile(t, t.TempDir(), "farm.txt", "txt", []byte(text))}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"text.sentences"}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if strings.Contains(task.Query, "harvest") {
			t.Errorf("asks for the sentences with harvest, one after Dr.: %s", task.Query)
		}
	}
	if got := sentences(text); len(got) != 6 || got[1] != "Dr." {
		t.Errorf("sentences: %q", got)
	}
}
