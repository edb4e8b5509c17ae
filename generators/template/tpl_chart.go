package template

import (
	"fmt"
	"math"
	"strings"

	"synth/schemas"
)

func init() {
	for _, t := range []struct {
		name  string
		build func(*bctx) ([]spec, error)
	}{
		{"chart.bar", buildBar}, {"chart.line", buildLine}, {"chart.pie", buildPie}, {"chart.scatter", buildScatter},
		{"chart.hist", buildHist}, {"chart.heatmap", buildHeatmap}, {"chart.radar", buildRadar}, {"chart.box", buildBox},
	} {
		register(&tmpl{Info: Info{Name: t.name, Version: 1, Category: schemas.CategoryData, Subcategory: GroupVisualization, FileTypes: tableTypes},
			inputs: 1, build: withoutTotals(t.build), mutate: mutateBlankImage})
	}
}

// chartChecks: a real PNG of some size that is not blank, whose figure
// plotted what content asserts (a chart_* helper of the checks library,
// checks/charts.py, given values computed from the real input).
func chartChecks(content schemas.Check) []schemas.Check {
	return append(pngChecks(), content)
}

// chartContent is a python check that reads the input as the reference
// does (df) and runs code, which compares the figure record of {out}.png
// with values it computes from df.
func chartContent(c *bctx, code string, args ...any) schemas.Check {
	return schemas.Check{Kind: schemas.CheckPython, Code: "import pandas as pd\n" + c.loadCode(0, "df") + "\n" +
		strings.TrimSpace(fmt.Sprintf(code, args...))}
}

// pngChecks: a real PNG of some size that is not blank.
func pngChecks() []schemas.Check {
	return []schemas.Check{
		fileCheck("{out}.png", "png", 4000),
		pyCheck(`
from PIL import Image
im = open_image(%[1]q)
assert im.size[0] >= 200 and im.size[1] >= 150, "%[1]s is %%dx%%d, too small for a chart" %% im.size
assert contrast(%[1]q) > 8, "%[1]s looks blank"
`, "{out}.png"),
	}
}

const pltHead = "import os\nimport matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"

const pltSave = "\nfig.tight_layout()\nos.makedirs('./output', exist_ok=True)\nfig.savefig('{OUT}.png')\nprint('saved')"

func chartSpec(c *bctx, params string, en, zh []string, code, what, whatZh string, content schemas.Check) []spec {
	return []spec{{
		params: params, en: en, zh: zh,
		steps:  []schemas.RefStep{loadStep(c, 0), step("Draw the chart with matplotlib and save it.", pltHead+code+pltSave)},
		answer: fmt.Sprintf("The %s is saved to {OUT}.png.", what), answerZh: fmt.Sprintf("%s已保存到 {OUT}.png。", whatZh),
		checks: chartChecks(content), outputs: []string{"{out}.png"},
	}}
}

func buildBar(c *bctx) ([]spec, error) {
	t := c.table(0)
	cat, ok1 := c.pickCol(t.categories())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 || cat.distinct > maxBars {
		return nil, nil
	}
	agg, en, zh, _ := aggOf(nc) // a total for an amount, an average for a rate
	return []spec{{
		params: fmt.Sprintf("bar:%s:%s:%s", cat.name, nc.name, agg),
		en: []string{
			fmt.Sprintf("Draw a bar chart of the %s %s for each %s and save it to {OUT}.png.", en, nc.name, cat.name),
			fmt.Sprintf("Visualize how %s compares across %s with a bar plot (%s per group). Save the figure as {OUT}.png.", nc.name, cat.name, agg),
		},
		zh: []string{
			fmt.Sprintf("请绘制每个 %s 的 %s %s值的柱状图，保存到 {OUT}.png。", cat.name, nc.name, zh),
			fmt.Sprintf("用柱状图展示不同 %s 的 %s（按组求%s），图片存为 {OUT}.png。", cat.name, nc.name, map[string]string{"sum": "和", "mean": "平均"}[agg]),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Aggregate per group and draw the bars.", fmt.Sprintf(`import os
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
s = df.groupby(%[1]s)[%[2]s].%[3]s().sort_values(ascending=False)
fig, ax = plt.subplots(figsize=(8, 5))
s.plot.bar(ax=ax, color='steelblue')
ax.set_xlabel(%[1]s)
ax.set_ylabel(%[4]s + ' ' + %[2]s)
ax.set_title(%[4]s + ' ' + %[2]s + ' by ' + %[1]s)
fig.tight_layout()
os.makedirs('./output', exist_ok=True)
fig.savefig('{OUT}.png')
print(s)`, py(cat.name), py(nc.name), agg, py(en))),
		},
		answer:   fmt.Sprintf("The bar chart of the %s %s per %s is saved to {OUT}.png.", en, nc.name, cat.name),
		answerZh: fmt.Sprintf("每个 %s 的 %s %s值柱状图已保存到 {OUT}.png。", cat.name, nc.name, zh),
		checks:   chartChecks(chartContent(c, "chart_bars('{out}.png', df.groupby(%s)[%s].%s())", py(cat.name), py(nc.name), agg)),
		outputs:  []string{"{out}.png"},
	}}, nil
}

// Chart caps: beyond them a chart cannot be read, and the template picks
// another chart or writes no task.
const (
	maxBars     = 20 // bars of a bar chart, boxes of a box plot
	maxSlices   = 8  // slices of a pie
	maxAnnotate = 10 // columns of an annotated heatmap; the first ones when there are more
)

func buildLine(c *bctx) ([]spec, error) {
	t := c.table(0)
	d, ok1 := c.pickCol(t.dates())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 {
		return nil, nil
	}
	return chartSpec(c, fmt.Sprintf("line:%s:%s", d.name, nc.name),
		[]string{fmt.Sprintf("Plot a line chart of the monthly average %s over time (using %s) and save it as {OUT}.png.", nc.name, d.name), fmt.Sprintf("Show how %s changes month by month with a line plot; save the figure to {OUT}.png.", nc.name)},
		[]string{fmt.Sprintf("请根据 %s 绘制 %s 月平均值随时间变化的折线图，保存为 {OUT}.png。", d.name, nc.name), fmt.Sprintf("用折线图展示 %s 每月的变化趋势，图片存为 {OUT}.png。", nc.name)},
		fmt.Sprintf("s = df.groupby(pd.to_datetime(df[%s]).dt.to_period('M'))[%s].mean()\nfig, ax = plt.subplots(figsize=(9, 5))\nax.plot(s.index.astype(str), s.values, marker='o')\nax.set_xlabel('month')\nax.set_ylabel(%s)\nax.set_title('Monthly average ' + %s)\nplt.xticks(rotation=45)", py(d.name), py(nc.name), py(nc.name), py(nc.name)),
		"line chart", "折线图",
		chartContent(c, "s = df.groupby(pd.to_datetime(df[%s]).dt.to_period('M'))[%s].mean()\nchart_line('{out}.png', s.values)", py(d.name), py(nc.name))), nil
}

func buildPie(c *bctx) ([]spec, error) {
	t := c.table(0)
	cat, ok := c.pickCol(t.categories())
	if !ok || cat.distinct > maxSlices {
		return nil, nil
	}
	return chartSpec(c, "pie:"+cat.name,
		[]string{fmt.Sprintf("Draw a pie chart showing the share of rows for each %s and save it to {OUT}.png.", cat.name), fmt.Sprintf("Make a pie chart of the %s distribution (with percentages) and save it as {OUT}.png.", cat.name)},
		[]string{fmt.Sprintf("请绘制饼图，展示各个 %s 所占的比例，保存到 {OUT}.png。", cat.name), fmt.Sprintf("画一个 %s 分布的饼图（显示百分比），存为 {OUT}.png。", cat.name)},
		fmt.Sprintf("s = df[%s].value_counts()\nfig, ax = plt.subplots(figsize=(7, 7))\nax.pie(s.values, labels=s.index, autopct='%%1.1f%%%%')\nax.set_title(%s)", py(cat.name), py(cat.name)),
		"pie chart", "饼图", chartContent(c, "chart_pie('{out}.png', df[%s].value_counts())", py(cat.name))), nil
}

func buildScatter(c *bctx) ([]spec, error) {
	t := c.table(0)
	a, b, r, ok := correlatedMeasures(c, t)
	if !ok {
		return nil, nil
	}
	// The question variant is answered: the strength of the relation, by
	// Pearson's r over the rows where both are present, and a check holds r.
	s := chartSpec(c, fmt.Sprintf("scatter:%s:%s", a.name, b.name),
		[]string{fmt.Sprintf("Make a scatter plot of %s (x axis) against %s (y axis), save it to {OUT}.png, and report Pearson's correlation coefficient between them.", a.name, b.name), fmt.Sprintf("Is there a linear relationship between %s and %s? Draw a scatter plot, save it as {OUT}.png, and answer with Pearson's r.", a.name, b.name)},
		[]string{fmt.Sprintf("请以 %s 为横轴、%s 为纵轴绘制散点图，保存到 {OUT}.png，并给出两者的皮尔逊相关系数。", a.name, b.name), fmt.Sprintf("%s 和 %s 之间有线性关系吗？画一个散点图，存为 {OUT}.png，并用皮尔逊相关系数 r 回答。", a.name, b.name)},
		fmt.Sprintf("fig, ax = plt.subplots(figsize=(7, 5))\nax.scatter(df[%s], df[%s], alpha=0.6)\nax.set_xlabel(%s)\nax.set_ylabel(%s)\nprint('r', round(df[%s].corr(df[%s]), 3))", py(a.name), py(b.name), py(a.name), py(b.name), py(a.name), py(b.name)),
		"scatter plot", "散点图", chartContent(c, "chart_scatter('{out}.png', df[%s], df[%s])", py(a.name), py(b.name)))
	s[0].answer = fmt.Sprintf("The scatter plot is saved to {OUT}.png. Pearson's r between %s and %s is %.3f: %s.", a.name, b.name, r, strength(r, false))
	s[0].answerZh = fmt.Sprintf("散点图已保存到 {OUT}.png。%s 与 %s 的皮尔逊相关系数 r 为 %.3f：%s。", a.name, b.name, r, strength(r, true))
	s[0].checks = append(s[0].checks, schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(r, 6), AbsTol: 0.0051}},
		recomputed(tableSetup(c, 0), recomp{fmt.Sprintf("df[%s].corr(df[%s])", py(a.name), py(b.name)), 0, 0.0051, ""}),
		valueToItsDigits(c, fmt.Sprintf("df[%s].corr(df[%s])", py(a.name), py(b.name)), ""))
	return s, nil
}

// strength words a correlation coefficient.
func strength(r float64, zh bool) string {
	a := math.Abs(r)
	dir, dirZh := "positive", "正"
	if r < 0 {
		dir, dirZh = "negative", "负"
	}
	switch {
	case a >= 0.7:
		return pick(zh, "a strong "+dir+" linear relationship", "强"+dirZh+"线性相关")
	case a >= 0.3:
		return pick(zh, "a moderate "+dir+" linear relationship", "中等"+dirZh+"线性相关")
	case a >= 0.1:
		return pick(zh, "a weak "+dir+" linear relationship", "弱"+dirZh+"线性相关")
	}
	return pick(zh, "no clear linear relationship", "没有明显的线性关系")
}

func buildHist(c *bctx) ([]spec, error) {
	t := c.table(0)
	nc, ok := c.pickCol(t.measures())
	if !ok {
		return nil, nil
	}
	return chartSpec(c, "hist:"+nc.name,
		[]string{fmt.Sprintf("Plot a histogram of %s with 20 bins and save it to {OUT}.png.", nc.name), fmt.Sprintf("Show the distribution of %s as a histogram (20 bins) and save it as {OUT}.png.", nc.name)},
		[]string{fmt.Sprintf("请绘制 %s 的直方图（20 个区间），保存到 {OUT}.png。", nc.name), fmt.Sprintf("用 20 组的直方图展示 %s 的分布，存为 {OUT}.png。", nc.name)},
		fmt.Sprintf("fig, ax = plt.subplots(figsize=(8, 5))\nax.hist(df[%s].dropna(), bins=20, color='teal', edgecolor='black')\nax.set_xlabel(%s)\nax.set_ylabel('count')", py(nc.name), py(nc.name)),
		"histogram", "直方图", chartContent(c, "chart_hist('{out}.png', df[%s].dropna(), 20)", py(nc.name))), nil
}

func buildHeatmap(c *bctx) ([]spec, error) {
	t := c.table(0)
	ms := t.measures()
	if len(ms) < 3 {
		return nil, nil
	}
	// Only measures correlate meaningfully (no ids, ranks or years), and
	// a matrix stays readable: annotated up to maxAnnotate columns, the
	// first maxAnnotate measures when there are more.
	if len(ms) > maxAnnotate {
		ms = ms[:maxAnnotate]
	}
	cols := names(ms)
	return chartSpec(c, "heatmap",
		[]string{fmt.Sprintf("Draw a heatmap of the correlation matrix of %s (annotated with the values) and save it to {OUT}.png.", joinAnd(cols)), fmt.Sprintf("Visualize how %s correlate with each other as an annotated heatmap; save it as {OUT}.png.", joinAnd(cols))},
		[]string{fmt.Sprintf("请绘制 %s 相关系数矩阵的热力图（标注数值），保存到 {OUT}.png。", joinZh(cols)), fmt.Sprintf("用标注数值的热力图展示 %s 之间的相关性，存为 {OUT}.png。", joinZh(cols))},
		fmt.Sprintf("corr = df[%s].corr()\nfig, ax = plt.subplots(figsize=(8, 7))\nim = ax.imshow(corr, cmap='coolwarm', vmin=-1, vmax=1)\nax.set_xticks(range(len(corr)))\nax.set_xticklabels(corr.columns, rotation=45, ha='right')\nax.set_yticks(range(len(corr)))\nax.set_yticklabels(corr.columns)\nfor i in range(len(corr)):\n    for j in range(len(corr)):\n        ax.text(j, i, '%%.2f' %% corr.iloc[i, j], ha='center', va='center', fontsize=8)\nfig.colorbar(im)", pyList(cols)),
		"correlation heatmap", "相关性热力图", chartContent(c, "chart_matrix('{out}.png', df[%s].corr())", pyList(cols))), nil
}

func buildRadar(c *bctx) ([]spec, error) {
	t := c.table(0)
	nums := t.measures()
	cat, ok := c.pickCol(t.categories())
	if len(nums) < 3 || !ok || cat.distinct > 6 {
		return nil, nil
	}
	if len(nums) > 6 {
		nums = nums[:6]
	}
	var names []string
	for _, n := range nums {
		names = append(names, n.name)
	}
	return chartSpec(c, "radar:"+cat.name,
		[]string{fmt.Sprintf("Draw a radar (spider) chart comparing the average %s for each %s, and save it to {OUT}.png.", joinAnd(names), cat.name), fmt.Sprintf("Compare the %s groups on %s with a radar chart of their means; save it as {OUT}.png.", cat.name, joinAnd(names))},
		[]string{fmt.Sprintf("请绘制雷达图，比较每个 %s 的 %s 平均值，保存到 {OUT}.png。", cat.name, joinZh(names)), fmt.Sprintf("用雷达图对比不同 %s 在 %s 上的均值，存为 {OUT}.png。", cat.name, joinZh(names))},
		fmt.Sprintf("import numpy as np\ncols = %s\nm = df.groupby(%s)[cols].mean()\nangles = np.linspace(0, 2 * np.pi, len(cols), endpoint=False).tolist()\nangles += angles[:1]\nfig = plt.figure(figsize=(7, 7))\nax = fig.add_subplot(polar=True)\nfor name, row in m.iterrows():\n    v = row.tolist() + row.tolist()[:1]\n    ax.plot(angles, v, label=str(name))\n    ax.fill(angles, v, alpha=0.1)\nax.set_xticks(angles[:-1])\nax.set_xticklabels(cols)\nax.legend(loc='upper right')", pyList(names), py(cat.name)),
		"radar chart", "雷达图", chartContent(c, "chart_profiles('{out}.png', df.groupby(%s)[%s].mean())", py(cat.name), pyList(names))), nil
}

func buildBox(c *bctx) ([]spec, error) {
	t := c.table(0)
	cat, ok1 := c.pickCol(t.categories())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 || cat.distinct > maxBars {
		return nil, nil
	}
	return chartSpec(c, fmt.Sprintf("box:%s:%s", cat.name, nc.name),
		[]string{fmt.Sprintf("Draw box plots of %s for each %s side by side and save the figure to {OUT}.png.", nc.name, cat.name), fmt.Sprintf("Compare the spread of %s across %s groups with a box plot; save it as {OUT}.png.", nc.name, cat.name)},
		[]string{fmt.Sprintf("请按 %s 分组绘制 %s 的箱线图，保存到 {OUT}.png。", cat.name, nc.name), fmt.Sprintf("用箱线图比较不同 %s 下 %s 的分布，存为 {OUT}.png。", cat.name, nc.name)},
		fmt.Sprintf("groups = [(str(k), g[%s].dropna()) for k, g in df.groupby(%s)]\nfig, ax = plt.subplots(figsize=(8, 5))\nax.boxplot([g for _, g in groups])\nax.set_xticks(range(1, len(groups) + 1))\nax.set_xticklabels([k for k, _ in groups])\nax.set_xlabel(%s)\nax.set_ylabel(%s)", py(nc.name), py(cat.name), py(cat.name), py(nc.name)),
		"box plot", "箱线图", chartContent(c, "chart_boxes('{out}.png', {str(k): g[%s].dropna() for k, g in df.groupby(%s)})", py(nc.name), py(cat.name))), nil
}
