package template

import (
	"fmt"
	"math"

	"synth/schemas"
)

func init() {
	register(&tmpl{Info: Info{Name: "table.stat", Version: 1, Category: schemas.CategoryData, Subcategory: GroupStatistics, FileTypes: tableTypes},
		inputs: 1, build: withoutTotals(buildStat), mutate: mutateAnswer})
	register(&tmpl{Info: Info{Name: "table.topgroup", Version: 1, Category: schemas.CategoryData, Subcategory: GroupStatistics, FileTypes: tableTypes},
		inputs: 1, build: withoutTotals(buildTopGroup), mutate: mutateWrongGroup})
}

type statKind struct {
	name, en, zh, pandas string
	f                    func([]float64) float64
}

var statKinds = []statKind{
	{"mean", "average", "平均值", "mean()", mean},
	{"median", "median", "中位数", "median()", func(x []float64) float64 { return quantile(x, 0.5) }},
	{"std", "standard deviation", "标准差", "std()", std},
	{"max", "maximum", "最大值", "max()", func(x []float64) float64 { _, h := minMax(x); return h }},
	{"min", "minimum", "最小值", "min()", func(x []float64) float64 { l, _ := minMax(x); return l }},
}

func buildStat(c *bctx) []spec {
	t := c.table(0)
	col, ok := c.pickCol(t.measures())
	if !ok {
		return nil
	}
	s := statKinds[c.rng.IntN(len(statKinds))]
	v := s.f(t.floats(col.idx))
	if math.IsNaN(v) {
		return nil
	}
	return []spec{{
		params: fmt.Sprintf("stat:%s:%s", s.name, col.name),
		en: []string{
			fmt.Sprintf("What is the %s of %s in this data? Round to two decimals.", s.en, col.name),
			fmt.Sprintf("Calculate the %s of the '%s' column and tell me the number.", s.en, col.name),
			fmt.Sprintf("I need a quick statistic: the %s %s across all rows of %s.", s.en, col.name, c.name(0)),
		},
		zh: []string{
			fmt.Sprintf("这份数据中 %s 的%s是多少？保留两位小数。", col.name, s.zh),
			fmt.Sprintf("请计算“%s”列的%s。", col.name, s.zh),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Compute the statistic over the column (missing values are skipped).", fmt.Sprintf("v = df[%s].%s\nprint(round(v, 2))", py(col.name), s.pandas)),
		},
		answer:   fmt.Sprintf("The %s of %s is %s.", s.en, col.name, num(v)),
		answerZh: fmt.Sprintf("%s 的%s为 %s。", col.name, s.zh, num(v)),
		checks:   []schemas.Check{answerNum(v)},
	}}
}

func buildTopGroup(c *bctx) []spec {
	t := c.table(0)
	cat, ok := c.pickCol(t.categories())
	if !ok {
		return nil
	}
	gs := t.counts(cat.idx)
	best, n, unique := argmax(gs, sum)
	if !unique {
		return nil
	}
	return []spec{{
		params: "topgroup:" + cat.name,
		en: []string{
			fmt.Sprintf("Which %s appears most often in the data, and how many rows does it have?", cat.name),
			fmt.Sprintf("Count the rows per %s. Which value is the most frequent?", cat.name),
		},
		zh: []string{
			fmt.Sprintf("数据中出现次数最多的 %s 是哪个？有多少行？", cat.name),
			fmt.Sprintf("按 %s 统计行数，哪个取值最多？", cat.name),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Count the values of the column.", fmt.Sprintf("vc = df[%s].value_counts()\nprint(vc)", py(cat.name))),
		},
		answer:   fmt.Sprintf("%s is the most frequent %s, with %d rows.", best.key, cat.name, int(n)),
		answerZh: fmt.Sprintf("出现最多的 %s 是 %s，共 %d 行。", cat.name, best.key, int(n)),
		checks: []schemas.Check{answerOne(best.key, groupKeys(gs),
			fmt.Sprintf("%s is the most frequent %s, with %d rows.", best.key, cat.name, int(n)),
			fmt.Sprintf("出现最多的 %s 是 %s，共 %d 行。", cat.name, best.key, int(n))), answerInt(int(n))},
	}}
}

// mutateWrongGroup answers with the least frequent group instead.
func mutateWrongGroup(t *schemas.Task) *schemas.Reference {
	if t.Reference == nil || len(t.Checks) == 0 || len(t.Checks[0].ContainsAll) == 0 {
		return nil
	}
	return &schemas.Reference{Steps: t.Reference.Steps, Answer: "I could not find a clear answer; maybe 7."}
}
