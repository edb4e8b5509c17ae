package template

import (
	"fmt"
	"math"
	"strconv"

	"synth/schemas"
)

func init() {
	register(&tmpl{Info: Info{Name: "table.sort", Version: 1, Category: schemas.CategoryData, Subcategory: GroupTransform, FileTypes: tableTypes},
		inputs: 1, build: withoutTotals(buildSort), mutate: mutateCode("ascending=False", "ascending=True", "ascending=True", "ascending=False")})
	register(&tmpl{Info: Info{Name: "table.filter", Version: 1, Category: schemas.CategoryData, Subcategory: GroupTransform, FileTypes: tableTypes},
		inputs: 1, build: withoutTotals(buildFilter), mutate: mutateCopyInput})
	register(&tmpl{Info: Info{Name: "table.groupby", Version: 1, Category: schemas.CategoryData, Subcategory: GroupTransform, FileTypes: tableTypes},
		inputs: 1, build: withoutTotals(buildGroupBy), mutate: mutateCode(".sum()\n", ".mean()\n", ".mean()\n", ".sum()\n")})
}

func buildSort(c *bctx) []spec {
	t := c.table(0)
	col, ok := c.pickCol(t.measures())
	if !ok {
		return nil
	}
	desc := c.rng.IntN(2) == 0
	lo, hi := minMax(t.floats(col.idx))
	first, word, zhWord := hi, "descending", "降序"
	if !desc {
		first, word, zhWord = lo, "ascending", "升序"
	}
	return []spec{{
		params: fmt.Sprintf("sort:%s:%v", col.name, desc),
		en: []string{
			fmt.Sprintf("Sort the data by %s in %s order, save it to {OUT}.csv, and tell me the value that ends up in the first row.", col.name, word),
			fmt.Sprintf("Can you order this table by the '%s' column (%s) and write it out as {OUT}.csv? Also report the first %s value after sorting.", col.name, word, col.name),
		},
		zh: []string{
			fmt.Sprintf("请按 %s 列%s排列数据，保存到 {OUT}.csv，并告诉我排序后第一行的 %s 是多少。", col.name, zhWord, col.name),
			fmt.Sprintf("把表格按“%s”%s排序后存为 {OUT}.csv，排在最前面的值是多少？", col.name, zhWord),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Sort by the column and save.", fmt.Sprintf("df = df.sort_values(%s, ascending=%s)\n", py(col.name), pyBool(!desc))+saveCSV+fmt.Sprintf("\nprint(df[%s].iloc[0])", py(col.name))),
		},
		answer:   fmt.Sprintf("The data sorted by %s (%s) is saved to {OUT}.csv; the first row has %s = %s.", col.name, word, col.name, num(first)),
		answerZh: fmt.Sprintf("已按 %s %s排序并保存到 {OUT}.csv，第一行的 %s 为 %s。", col.name, zhWord, col.name, num(first)),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows)), SortedBy: &schemas.SortKey{Column: col.name, Descending: desc}},
			answerNum(first),
		},
		outputs: []string{"{out}.csv"},
	}}
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func buildFilter(c *bctx) []spec {
	t := c.table(0)
	cat, ok1 := c.pickCol(t.categories())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 {
		return nil
	}
	gs := t.counts(cat.idx)
	val := gs[c.rng.IntN(len(gs))].key
	thr := quantile(t.floats(nc.idx), 0.5)
	if !nc.isInt {
		thr = round(thr, 1)
	} else {
		thr = math.Round(thr)
	}
	n := 0
	for _, r := range t.rows {
		f, err := strconv.ParseFloat(r[nc.idx], 64)
		if r[cat.idx] == val && err == nil && r[nc.idx] != "" && f > thr {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	ts := num(thr)
	return []spec{{
		params: fmt.Sprintf("filter:%s=%s:%s>%s", cat.name, val, nc.name, ts),
		en: []string{
			fmt.Sprintf("Filter the rows where %s is \"%s\" and %s is greater than %s. Save them to {OUT}.csv and tell me how many rows matched.", cat.name, val, nc.name, ts),
			fmt.Sprintf("I only need the records with %s = %s whose %s exceeds %s. Write those to {OUT}.csv — how many are there?", cat.name, val, nc.name, ts),
		},
		zh: []string{
			fmt.Sprintf("请筛选出 %s 为“%s”且 %s 大于 %s 的行，保存到 {OUT}.csv，并告诉我一共有多少行。", cat.name, val, nc.name, ts),
			fmt.Sprintf("只保留 %s 是 %s、%s 超过 %s 的记录，存成 {OUT}.csv。符合条件的有几条？", cat.name, val, nc.name, ts),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Apply both conditions and save the matching rows.",
				fmt.Sprintf("df = df[(df[%s] == %s) & (df[%s] > %s)]\n", py(cat.name), py(val), py(nc.name), ts)+saveCSV+"\nprint(len(df))"),
		},
		answer:   fmt.Sprintf("%d rows have %s = %s and %s > %s; they are saved to {OUT}.csv.", n, cat.name, val, nc.name, ts),
		answerZh: fmt.Sprintf("共有 %d 行满足 %s 为 %s 且 %s 大于 %s，已保存到 {OUT}.csv。", n, cat.name, val, nc.name, ts),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(n), ColumnsInclude: []string{cat.name, nc.name}},
			pyCheck(`
df = read_table(%[1]q)
c, v = find_column(df, %[2]q), find_column(df, %[4]q)
bad = df[(df[c].astype(str) != %[3]q) | ~(df[v] > %[5]s)]
assert len(bad) == 0, "%[1]s has %%d rows that do not satisfy %[2]s == %[3]s and %[4]s > %[5]s" %% len(bad)
`, "{out}.csv", cat.name, val, nc.name, ts),
			answerInt(n),
		},
		outputs: []string{"{out}.csv"},
	}}
}

func buildGroupBy(c *bctx) []spec {
	t := c.table(0)
	cat, ok1 := c.pickCol(t.categories())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 {
		return nil
	}
	var a struct {
		name, en, zh string
		f            func([]float64) float64
	}
	a.name, a.en, a.zh, a.f = aggOf(nc) // amounts sum, rates and levels average
	if nc.role == roleExtensive && c.rng.IntN(2) == 0 {
		a.name, a.en, a.zh, a.f = "mean", "average", "平均", mean
	}
	gs := t.groupBy(cat.idx, nc.idx)
	best, _, unique := argmax(gs, a.f)
	if !unique || len(gs) < 2 {
		return nil
	}
	expect := "{"
	for i, g := range gs {
		if i > 0 {
			expect += ", "
		}
		expect += fmt.Sprintf("%s: %s", py(g.key), strconv.FormatFloat(a.f(g.vals), 'g', 12, 64))
	}
	expect += "}"
	return []spec{{
		params: fmt.Sprintf("groupby:%s:%s:%s", cat.name, nc.name, a.name),
		en: []string{
			fmt.Sprintf("Group the data by %s and compute the %s %s for each group. Save the summary table to {OUT}.csv and tell me which %s has the highest %s %s.", cat.name, a.en, nc.name, cat.name, a.en, nc.name),
			fmt.Sprintf("What is the %s %s per %s? Write the per-group results to {OUT}.csv (one row per %s) and name the group with the largest value.", a.en, nc.name, cat.name, cat.name),
		},
		zh: []string{
			fmt.Sprintf("请按 %s 分组，计算每组 %s 的%s值，把汇总表保存到 {OUT}.csv，并告诉我哪个 %s 的%s %s 最高。", cat.name, nc.name, a.zh, cat.name, a.zh, nc.name),
			fmt.Sprintf("统计每个 %s 的%s %s，结果存为 {OUT}.csv（每组一行），数值最大的是哪一组？", cat.name, a.zh, nc.name),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Aggregate per group, save, and find the largest group.",
				fmt.Sprintf("df = df.groupby(%s, as_index=False)[%s].%s()\n", py(cat.name), py(nc.name), a.name)+saveCSV+
					fmt.Sprintf("\nprint(df.sort_values(%s, ascending=False))", py(nc.name))),
		},
		answer:   fmt.Sprintf("The per-%s %s %s is saved to {OUT}.csv; %s has the highest value (%s).", cat.name, a.en, nc.name, best.key, num(a.f(best.vals))),
		answerZh: fmt.Sprintf("各 %s 的%s %s 已保存到 {OUT}.csv，其中 %s 最高（%s）。", cat.name, a.zh, nc.name, best.key, num(a.f(best.vals))),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(gs)), ColumnsInclude: []string{cat.name}},
			pyCheck(`
df = read_table(%[1]q)
key = find_column(df, %[2]q)
want = %[3]s
got = {str(k): v for k, v in zip(df[key], df.drop(columns=[key]).select_dtypes('number').itertuples(index=False))}
for k, w in want.items():
    assert k in got, "%[1]s has no row for %[2]s = %%s" %% k
    assert any(number_close(float(x), w, 1e-3, 0.01) for x in got[k]), "%[1]s: %[2]s = %%s has %%s, expected %%.4g" %% (k, list(got[k]), w)
`, "{out}.csv", cat.name, expect),
			answerOne(best.key, groupKeys(gs),
				fmt.Sprintf("The per-%s %s %s is saved to {OUT}.csv; %s has the highest value (%s).", cat.name, a.en, nc.name, best.key, num(a.f(best.vals))),
				fmt.Sprintf("各 %s 的%s %s 已保存到 {OUT}.csv，其中 %s 最高（%s）。", cat.name, a.zh, nc.name, best.key, num(a.f(best.vals)))),
		},
		outputs: []string{"{out}.csv"},
	}}
}
