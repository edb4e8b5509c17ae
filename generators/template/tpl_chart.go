package template

import (
	"fmt"

	"synth/schemas"
)

func init() {
	register(&tmpl{Info: Info{Name: "chart.bar", Version: 1, Category: schemas.CategoryData, Subcategory: GroupVisualization, FileTypes: tableTypes},
		inputs: 1, build: buildBar, mutate: mutateBlankImage})
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
	cat, ok1 := c.pickCol(t.ofKind(kindCat))
	nc, ok2 := c.pickCol(t.additive())
	if !ok1 || !ok2 {
		return nil
	}
	return []spec{{
		params: fmt.Sprintf("bar:%s:%s", cat.name, nc.name),
		en: []string{
			fmt.Sprintf("Draw a bar chart of the total %s for each %s and save it to {OUT}.png.", nc.name, cat.name),
			fmt.Sprintf("Visualize how %s is distributed across %s with a bar plot (sum per group). Save the figure as {OUT}.png.", nc.name, cat.name),
		},
		zh: []string{
			fmt.Sprintf("请绘制每个 %s 的 %s 总和的柱状图，保存到 {OUT}.png。", cat.name, nc.name),
			fmt.Sprintf("用柱状图展示不同 %s 的 %s 合计，图片存为 {OUT}.png。", cat.name, nc.name),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Sum per group and draw the bars.", fmt.Sprintf(`import os
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
s = df.groupby(%[1]s)[%[2]s].sum().sort_values(ascending=False)
fig, ax = plt.subplots(figsize=(8, 5))
s.plot.bar(ax=ax, color='steelblue')
ax.set_xlabel(%[1]s)
ax.set_ylabel('total ' + %[2]s)
ax.set_title('Total ' + %[2]s + ' by ' + %[1]s)
fig.tight_layout()
os.makedirs('./output', exist_ok=True)
fig.savefig('{OUT}.png')
print(s)`, py(cat.name), py(nc.name))),
		},
		answer:   fmt.Sprintf("The bar chart of total %s per %s is saved to {OUT}.png.", nc.name, cat.name),
		answerZh: fmt.Sprintf("每个 %s 的 %s 总和柱状图已保存到 {OUT}.png。", cat.name, nc.name),
		checks:   chartChecks(),
		outputs:  []string{"{out}.png"},
	}}
}
