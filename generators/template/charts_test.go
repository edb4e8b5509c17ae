package template

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"synth/generators"
	"synth/pyenv/pyenvtest"
)

// chartPrelude runs the task's reference code (so df and the reference's
// chart exist), then names what the reference plotted: used, the quoted
// names in its code; nums and cats, the input's numeric columns and its
// categorical ones of 2 to 8 values. swap(pool) reruns the reference with
// its first column of pool replaced by another column of pool: the same
// chart of another column.
const chartPrelude = `import re, os, collections
import numpy as np, pandas as pd
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
import seaborn as sns
code = TASK_CODE
exec(code, globals())
plt.close('all')
used = re.findall(r'"([^"]+)"', code)
nums = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
cats = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c]) and 1 < df[c].nunique() <= 8]
def swap(pool):
    a = next(c for c in used if c in pool)
    b = next(c for c in pool if c not in used)
    exec(code.replace('"%s"' % a, '"%s"' % b), globals())
`

// chartStep is a solution that runs the prelude, then body.
func chartStep(name, body string) solution {
	return solution{name: name, own: true, steps: []string{chartPrelude + body}}
}

// edit is a solution that is the reference with code edited.
func edit(name string, pairs ...string) solution { return solution{name: name, replace: pairs} }

// noRecord draws bars with PIL over a light noise into the task's output:
// a real, non-blank chart of more than 4000 bytes that no figure record
// vouches for.
const noRecord = `import os
from PIL import Image, ImageDraw
os.makedirs(os.path.dirname(OUT), exist_ok=True)
import numpy as np
im = Image.fromarray(np.random.default_rng(0).integers(215, 256, (500, 800, 3), dtype=np.uint8))
d = ImageDraw.Draw(im)
for i, h in enumerate([300, 200, 250, 120]):
    d.rectangle([60 + i * 160, 450 - h, 160 + i * 160, 450], fill=(70, 130, 180))
im.save(OUT)`

// forgedRecord saves the reference's chart, draws another picture over
// the file, and names the reference's record after the new bytes' digest
// without changing what the record says it vouches for.
const forgedRecord = `import hashlib, glob, json, shutil
exec(TASK_CODE, globals())
old = hashlib.sha256(open(OUT, 'rb').read()).hexdigest()
` + noRecord + `
new = hashlib.sha256(open(OUT, 'rb').read()).hexdigest()
shutil.copy('output/.figures/%s.json' % old, 'output/.figures/%s.json' % new)`

// TestChartChecksCompareContent: every chart template's check compares
// what its figure plotted (the sandbox's figure record) with values
// computed from the real input. Charts of another column, another
// statistic, scaled or mislabelled values, a picture without a record and
// a forged record fail; the same chart drawn with seaborn, pandas' .plot,
// horizontal or sorted bars, other colours and sizes passes.
func TestChartChecksCompareContent(t *testing.T) {
	pyenvtest.Python(t)
	ins := retailInput(t)
	cases := []struct {
		tmpl         string
		wrong, right []solution
	}{
		{"chart.bar",
			[]solution{
				chartStep("bars of another column", "swap(nums)"),
				edit("max for the aggregate", ".sum().sort_values", ".max().sort_values", ".mean().sort_values", ".max().sort_values"),
				edit("values scaled by 1.1", "s.plot.bar(ax=ax", "(s * 1.1).plot.bar(ax=ax"),
				edit("bars under each other's labels", "s.plot.bar(ax=ax", "pd.Series(s.values, index=s.index[::-1]).plot.bar(ax=ax"),
				{name: "bars drawn with PIL", own: true, steps: []string{noRecord}},
				{name: "a forged record", own: true, steps: []string{forgedRecord}},
			},
			[]solution{
				chartStep("seaborn barplot", `cat, m, agg = re.search(r'groupby\("([^"]+)"\)\["([^"]+)"\]\.(\w+)\(\)', code).groups()
fig, ax = plt.subplots(figsize=(10, 6))
sns.barplot(data=df, x=cat, y=m, estimator=agg, errorbar=None, ax=ax, palette='viridis', hue=cat, legend=False)
fig.savefig(OUT)`),
				edit("sorted horizontal bars in red", "s.plot.bar(ax=ax, color='steelblue')", "s.sort_values().plot.barh(ax=ax, color='darkred')"),
				edit("another figure size", "figsize=(8, 5)", "figsize=(12, 4)"),
			}},
		{"chart.pie",
			[]solution{
				chartStep("pie of another column", "swap(cats)"),
				edit("a slice left out", ".value_counts()", ".value_counts().iloc[:-1]"),
				chartStep("pie of a measure's sums", `cat = next(c for c in used if c in cats)
s = df.groupby(cat)[nums[-1]].sum()
fig, ax = plt.subplots()
ax.pie(s.values, labels=s.index)
fig.savefig(OUT)`),
			},
			[]solution{
				chartStep("pandas plot.pie", `cat = next(c for c in used if c in cats)
fig, ax = plt.subplots(figsize=(6, 6))
df[cat].value_counts().sort_index().plot.pie(ax=ax, autopct='%.0f%%', startangle=90, cmap='Pastel1')
fig.savefig(OUT)`),
				chartStep("counted with collections", `cat = next(c for c in used if c in cats)
n = collections.Counter(df[cat].dropna())
fig, ax = plt.subplots()
ax.pie(list(n.values()), labels=list(n.keys()))
fig.savefig(OUT, dpi=80)`),
			}},
		{"chart.hist",
			[]solution{
				chartStep("histogram of another column", "swap(nums)"),
				edit("10 bins", "bins=20", "bins=10"),
				edit("the first row left out", ".dropna()", ".dropna().iloc[1:]"),
			},
			[]solution{
				chartStep("seaborn histplot with a kde", `m = next(c for c in used if c in nums)
fig, ax = plt.subplots()
sns.histplot(df[m], bins=20, kde=True, ax=ax)
fig.savefig(OUT)`),
				chartStep("pandas, lying, as densities", `m = next(c for c in used if c in nums)
fig, ax = plt.subplots()
df[m].plot.hist(bins=20, orientation='horizontal', density=True, ax=ax)
fig.savefig(OUT)`),
				chartStep("numpy counts drawn as bars", `m = next(c for c in used if c in nums)
n, e = np.histogram(df[m].dropna(), bins=20)
fig, ax = plt.subplots()
ax.bar(e[:-1], n, width=np.diff(e), align='edge')
fig.savefig(OUT)`),
			}},
		{"chart.line",
			[]solution{
				chartStep("line of another column", "swap([c for c in nums if c not in ('Row',)])"),
				edit("monthly sums", ".mean()", ".sum()"),
				edit("monthly medians", ".mean()", ".median()"),
			},
			[]solution{
				chartStep("pandas resample", `d, m = re.search(r'to_datetime\(df\["([^"]+)"\]\).*?\)\["([^"]+)"\]', code).groups()
fig, ax = plt.subplots(figsize=(10, 4))
df.assign(when=pd.to_datetime(df[d])).set_index('when')[m].resample('ME').mean().plot(ax=ax, color='green')
fig.savefig(OUT)`),
				chartStep("seaborn lineplot", `d, m = re.search(r'to_datetime\(df\["([^"]+)"\]\).*?\)\["([^"]+)"\]', code).groups()
s = df.groupby(pd.to_datetime(df[d]).dt.strftime('%Y-%m'))[m].mean()
fig, ax = plt.subplots()
sns.lineplot(x=list(s.index), y=list(s.values), ax=ax, marker='s')
fig.savefig(OUT)`),
			}},
		{"chart.scatter",
			[]solution{
				chartStep("x and y swapped", `a, b = re.search(r'ax\.scatter\(df\["([^"]+)"\], df\["([^"]+)"\]', code).groups()
fig, ax = plt.subplots()
ax.scatter(df[b], df[a])
fig.savefig(OUT)`),
				chartStep("y of another column", `a, b = re.search(r'ax\.scatter\(df\["([^"]+)"\], df\["([^"]+)"\]', code).groups()
fig, ax = plt.subplots()
ax.scatter(df[a], df[next(c for c in nums if c not in (a, b))])
fig.savefig(OUT)`),
				edit("the first ten rows left out", "ax.scatter(df[", "df = df.iloc[10:]\nax.scatter(df["),
			},
			[]solution{
				chartStep("seaborn scatterplot with hue", `a, b = re.search(r'ax\.scatter\(df\["([^"]+)"\], df\["([^"]+)"\]', code).groups()
fig, ax = plt.subplots()
sns.scatterplot(data=df, x=a, y=b, hue=cats[0], ax=ax)
fig.savefig(OUT)`),
				chartStep("markers of a line", `a, b = re.search(r'ax\.scatter\(df\["([^"]+)"\], df\["([^"]+)"\]', code).groups()
fig, ax = plt.subplots()
ax.plot(df[a], df[b], 'o', color='purple')
fig.savefig(OUT)`),
			}},
		{"chart.heatmap",
			[]solution{
				edit("Spearman's correlation", ".corr()", ".corr(method='spearman')"),
				edit("covariances", ".corr()", ".cov()"),
				chartStep("another column's correlations", "swap(nums)"),
			},
			[]solution{
				chartStep("seaborn heatmap, lower triangle", `cols = eval(re.search(r'df\[(\[[^\]]*\])\]\.corr', code).group(1))
c = df[cols].corr()
fig, ax = plt.subplots(figsize=(9, 8))
sns.heatmap(c, annot=True, fmt='.2f', cmap='viridis', mask=np.triu(np.ones_like(c, dtype=bool), 1), ax=ax)
fig.savefig(OUT)`),
				chartStep("matshow, columns reversed", `cols = eval(re.search(r'df\[(\[[^\]]*\])\]\.corr', code).group(1))[::-1]
c = df[cols].corr()
fig, ax = plt.subplots()
ax.matshow(c, cmap='magma')
ax.set_xticks(range(len(cols)))
ax.set_xticklabels(cols, rotation=90)
ax.set_yticks(range(len(cols)))
ax.set_yticklabels(cols)
fig.savefig(OUT)`),
			}},
		{"chart.box",
			[]solution{
				chartStep("boxes of another column", "swap(nums)"),
				chartStep("one box of every row", `m = next(c for c in used if c in nums)
fig, ax = plt.subplots()
ax.boxplot(df[m].dropna())
fig.savefig(OUT)`),
				chartStep("boxes by another category", "swap(cats)"),
			},
			[]solution{
				chartStep("seaborn, lying", `m = next(c for c in used if c in nums)
cat = next(c for c in used if c in cats)
fig, ax = plt.subplots()
sns.boxplot(data=df, y=cat, x=m, ax=ax)
fig.savefig(OUT)`),
				chartStep("pandas boxplot by", `m = next(c for c in used if c in nums)
cat = next(c for c in used if c in cats)
ax = df.boxplot(column=m, by=cat, figsize=(9, 5))
ax.figure.savefig(OUT)`),
			}},
		{"chart.radar",
			[]solution{
				edit("maxima for means", ".mean()", ".max()"),
				edit("medians for means", ".mean()", ".median()"),
				chartStep("another column among the axes", "swap(nums)"),
			},
			[]solution{
				edit("scaled to each column's range", ".mean()\n", ".mean()\nm = (m - m.min()) / (m.max() - m.min())\n"),
				edit("columns in another order", ".mean()\n", ".mean()\nm = m[m.columns[::-1]]\n"),
			}},
	}
	for _, tc := range cases {
		t.Run(tc.tmpl, func(t *testing.T) { judge(t, ins, tc.tmpl, tc.wrong, tc.right) })
	}
}

// cloudText is a text of 40 words whose counts fall as 60/rank (river
// 60 times, then forest 30, ...), in sentences.
func cloudText() string {
	words := strings.Fields(`river forest mountain valley harbour meadow glacier canyon island desert
		prairie lagoon estuary plateau volcano orchard vineyard marsh tundra savanna
		reef delta fjord moor heath grove spring creek ridge summit
		basin cliff dune steppe jungle oasis bayou brook cove gorge`)
	var b strings.Builder
	for r, w := range words {
		for range 60 / (r + 1) {
			b.WriteString("We walked to the " + w + " at dawn. ")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestWordCloudCheckReadsItsWords: a word cloud is judged by its words
// (the figure record of wordcloud's layout, or of words drawn as text):
// every word spelled backwards, the words of another text, the text's
// rarest words, or its heaviest word right and the others backwards fail;
// a cloud made from counted frequencies, shown with imshow and saved by
// matplotlib, saved with PIL, or drawn as text sized by count passes.
func TestWordCloudCheckReadsItsWords(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeFile(t, t.TempDir(), "walks.txt", "txt", []byte(cloudText()))}
	const head = "import os, re, collections\nfrom wordcloud import WordCloud\nimport matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n" +
		"text = open([os.path.join('data', f) for f in os.listdir('data')][0], encoding='utf-8').read()\n" +
		"os.makedirs(os.path.dirname(OUT), exist_ok=True)\nn = collections.Counter(w for w in re.findall(r'[a-z]+', text.lower()) if len(w) > 3)\n"
	judge(t, ins, "text.wordcloud",
		[]solution{
			{name: "every word backwards", own: true, steps: []string{head + "WordCloud().generate(' '.join(w[::-1] for w in text.split())).to_file(OUT)"}},
			{name: "another text", own: true, steps: []string{head + "WordCloud().generate('colour shape river mountain forest ocean cloud thunder ' * 20).to_file(OUT)"}},
			{name: "the rarest words", own: true, steps: []string{head + "WordCloud().generate_from_frequencies({w: 1.0 / k for w, k in n.items() if k <= 2}).to_file(OUT)"}},
			{name: "the heaviest word, the others backwards", own: true, steps: []string{head + "top = n.most_common(1)[0][0]\nWordCloud().generate_from_frequencies({(w if w == top else w[::-1]): k for w, k in n.items()}).to_file(OUT)"}},
			{name: "a picture without a record", own: true, steps: []string{noRecord}},
		},
		[]solution{
			{name: "counted frequencies, imshow, savefig", own: true, steps: []string{head + `wc = WordCloud(width=600, height=300, colormap='plasma').generate_from_frequencies(n)
fig, ax = plt.subplots(figsize=(8, 4))
ax.imshow(wc, interpolation='bilinear')
ax.axis('off')
fig.savefig(OUT)`}},
			{name: "to_image, saved with PIL", own: true, steps: []string{head + "WordCloud(background_color='black').generate(text).to_image().save(OUT)"}},
			{name: "words drawn as text sized by count", own: true, steps: []string{head + `import random
random.seed(0)
fig, ax = plt.subplots(figsize=(10, 5))
ax.axis('off')
top = n.most_common(1)[0][1]
for w, k in n.most_common(40):
    ax.text(random.random(), random.random(), w, fontsize=8 + 40 * k / top)
fig.savefig(OUT)`}},
		})
}

// chartTemplates are the templates whose output is a chart.
var chartTemplates = []string{"chart.bar", "chart.line", "chart.pie", "chart.scatter", "chart.hist",
	"chart.heatmap", "chart.radar", "chart.box", "text.wordcloud"}

// TestChartTasksProveOnCorpus proves the first task of each chart template
// and input type of the built-in corpus: every reference's figure record
// holds what its check computes from the input, and the mutant, the
// adversaries and the battery fail.
func TestChartTasksProveOnCorpus(t *testing.T) {
	pyenvtest.Python(t)
	ins, paths := corpus(t)
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: chartTemplates}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	tasks = proofSample(tasks, 1)
	t.Logf("%d tasks", len(tasks))
	seen := map[string]bool{}
	for _, task := range tasks {
		seen[strings.Split(strings.TrimPrefix(task.Generator, "template:"), "@")[0]] = true
	}
	for _, name := range chartTemplates {
		if !seen[name] {
			t.Errorf("the corpus gets no %s task", name)
		}
	}
	if v := validateAll(t, tasks, paths); len(v.Kept) != len(tasks) {
		t.Fatalf("%d of %d tasks hold", len(v.Kept), len(tasks))
	}
}

// TestBoxCheckReadsTheValueAxis: where tick labels name the groups, a box
// plot's quartiles are looked for along the other axis only. Here every
// quartile of one group is 1 and of the other 2, which are also where
// matplotlib puts the boxes along x: boxes of another column, labelled
// or not (unlabelled boxes are read as upright), fail. One
// box of every row has quartiles 1 and 2 too, and fails for drawing one
// box for two groups.
func TestBoxCheckReadsTheValueAxis(t *testing.T) {
	pyenvtest.Python(t)
	body := genRows("film_id,kind,rating", 60, func(i int) string {
		r := 1 + float64(i%2) // drama 1, comedy 2, and one in five half a point more
		if i%10 < 2 {
			r += 0.5
		}
		return fmt.Sprintf("%d,%s,%.2f", 4000+i*37, []string{"drama", "comedy"}[i%2], r)
	})
	ins := []generators.Input{writeFile(t, t.TempDir(), "films.csv", "csv", []byte(body))}
	judge(t, ins, "chart.box",
		[]solution{
			chartStep("boxes of another column", "swap(nums)"),
			chartStep("one box of every row", `m = next(c for c in used if c in nums)
fig, ax = plt.subplots()
ax.boxplot(df[m].dropna())
fig.savefig(OUT)`),
			chartStep("boxes of another column, unlabelled", `m = next(c for c in used if c in nums)
cat = next(c for c in used if c in cats)
other = next(c for c in nums if c != m)
fig, ax = plt.subplots()
ax.boxplot([g[other].dropna() for _, g in df.groupby(cat)])
fig.savefig(OUT)`),
		},
		[]solution{chartStep("seaborn", `m = next(c for c in used if c in nums)
cat = next(c for c in used if c in cats)
fig, ax = plt.subplots()
sns.boxplot(data=df, x=cat, y=m, ax=ax)
fig.savefig(OUT)`)})
}
