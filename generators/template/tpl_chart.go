package template

import (
	"fmt"

	"synth/schemas"
)

func init() {
	register(&tmpl{Info: Info{Name: "chart.bar", Version: 1, Category: schemas.CategoryData, Subcategory: GroupVisualization, FileTypes: tableTypes},
		inputs: 1, build: withoutTotals(buildBar), mutate: mutateBlankImage})
}

// chartChecks: a real PNG of some size that is not blank.
func chartChecks() []schemas.Check {
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

// mutateBlankImage writes a blank image where the chart should be.
func mutateBlankImage(t *schemas.Task) *schemas.Reference {
	if len(t.Outputs) == 0 || t.Reference == nil {
		return nil
	}
	code := fmt.Sprintf("import os\nfrom PIL import Image\n"+makeDirFor("./"+t.Outputs[0])+"\nImage.new('RGB', (640, 480), 'white').save(%s)", py("./"+t.Outputs[0]))
	return &schemas.Reference{Steps: []schemas.RefStep{{Thought: "Save an empty canvas.", Code: code}}, Answer: t.Reference.Answer}
}

func buildBar(c *bctx) []spec {
	t := c.table(0)
	cat, ok1 := c.pickCol(t.categories())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 || cat.distinct > maxBars {
		return nil
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
		checks:   chartChecks(),
		outputs:  []string{"{out}.png"},
	}}
}

// Chart caps: beyond them a chart cannot be read, and the template picks
// another chart or writes no task.
const (
	maxBars     = 20 // bars of a bar chart, boxes of a box plot
	maxSlices   = 8  // slices of a pie
	maxAnnotate = 10 // columns of an annotated heatmap; the first ones when there are more
)
