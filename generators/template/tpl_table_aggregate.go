package template

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"synth/schemas"
)

func init() {
	reg := func(name string, b func(*bctx) ([]spec, error), m func(*schemas.Task) *schemas.Reference) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryData, Subcategory: GroupTransform, FileTypes: tableTypes},
			inputs: 1, build: withoutTotals(b), mutate: m})
	}
	reg("table.groupby", buildGroupBy, mutateCode(".sum()\n", ".mean()\n", ".mean()\n", ".sum()\n"))
	reg("table.pivot", buildPivot, mutateCopyInput)
	reg("table.monthly", buildMonthly, mutateCopyInput)
}

func buildGroupBy(c *bctx) ([]spec, error) {
	t := c.table(0)
	cat, ok1 := c.pickCol(t.categories())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 {
		return nil, nil
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
		return nil, nil
	}
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
			sameTableCheck(c, "{out}.csv", fmt.Sprintf("df = df.groupby(%s, as_index=False)[%s].%s()", py(cat.name), py(nc.name), a.name), false),
			answerOne(best.key, groupKeys(gs),
				fmt.Sprintf("The per-%s %s %s is saved to {OUT}.csv; %s has the highest value (%s).", cat.name, a.en, nc.name, best.key, num(a.f(best.vals))),
				fmt.Sprintf("各 %s 的%s %s 已保存到 {OUT}.csv，其中 %s 最高（%s）。", cat.name, a.zh, nc.name, best.key, num(a.f(best.vals)))),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildPivot(c *bctx) ([]spec, error) {
	t := c.table(0)
	cats := t.categories()
	nc, ok := c.pickCol(t.additive())
	if len(cats) < 2 || !ok {
		return nil, nil
	}
	r, col := cats[0], cats[1]
	if c.rng.IntN(2) == 0 {
		r, col = col, r
	}
	rows := t.counts(r.idx)
	cols := t.counts(col.idx)
	if len(cols) > 8 {
		return nil, nil
	}
	var colNames []string
	for _, g := range cols {
		colNames = append(colNames, g.key)
	}
	pivotCode := fmt.Sprintf("df = df.pivot_table(index=%s, columns=%s, values=%s, aggfunc='sum', fill_value=0).reset_index()\ndf.columns = [str(x) for x in df.columns]", py(r.name), py(col.name), py(nc.name))
	return []spec{{
		params: fmt.Sprintf("pivot:%s:%s:%s", r.name, col.name, nc.name),
		en: []string{
			fmt.Sprintf("Make a pivot table with one row per %s, one column per %s, and the sum of %s in the cells (0 where there is nothing). Save it to {OUT}.csv with %s as the first column.", r.name, col.name, nc.name, r.name),
			fmt.Sprintf("Cross-tabulate total %s by %s (rows) and %s (columns); fill empty cells with 0 and write the pivot to {OUT}.csv, keeping %s as a column.", nc.name, r.name, col.name, r.name),
		},
		zh: []string{
			fmt.Sprintf("请做一个数据透视表：每个 %s 一行、每个 %s 一列，单元格为 %s 的总和（没有数据填 0），保存到 {OUT}.csv，第一列为 %s。", r.name, col.name, nc.name, r.name),
			fmt.Sprintf("按 %s（行）和 %s（列）汇总 %s 的合计，空值填 0，透视表存为 {OUT}.csv，并保留 %s 列。", r.name, col.name, nc.name, r.name),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("pivot_table with sum, then move the index back into a column.", pivotCode+"\n"+saveCSV+"\nprint(df)"),
		},
		answer:   fmt.Sprintf("The %d x %d pivot of %s is saved to {OUT}.csv.", len(rows), len(cols), nc.name),
		answerZh: fmt.Sprintf("%s 的透视表（%d 行 x %d 列）已保存到 {OUT}.csv。", nc.name, len(rows), len(cols)),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(rows)), ColumnsInclude: append([]string{r.name}, colNames...)},
			sameTableCheck(c, "{out}.csv", pivotCode, false),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildMonthly(c *bctx) ([]spec, error) {
	if s := buildMixedMonthly(c); s != nil {
		return s, nil
	}
	t := c.table(0)
	d, ok1 := c.pickCol(t.dates())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 {
		return nil, nil
	}
	// Amounts are totalled per month; rates, levels and prices averaged.
	agg, en, _, f := aggOf(nc)
	vals := map[string][]float64{}
	for _, r := range t.rows {
		m := monthOf(r[d.idx])
		if m == "" || r[nc.idx] == "" {
			continue
		}
		v, _ := strconv.ParseFloat(r[nc.idx], 64)
		vals[m] = append(vals[m], v)
	}
	tot := map[string]float64{}
	for m, xs := range vals {
		tot[m] = f(xs)
	}
	months, best := monthsByTotal(tot)
	if len(months) < 3 || monthsWithDates(t, d.idx) != len(months) {
		return nil, nil // a month without values would be NaN in a mean, 0 in a sum
	}
	zhAgg := map[string]string{"sum": "总和", "mean": "平均值"}[agg]
	return []spec{{
		params: fmt.Sprintf("monthly:%s:%s:%s", d.name, nc.name, agg),
		en: []string{
			fmt.Sprintf("Analyse the trend over time: compute the %s %s per month (from %s), save it to {OUT}.csv with columns month (YYYY-MM) and %s, and tell me which month had the highest %s.", en, nc.name, d.name, nc.name, en),
			fmt.Sprintf("Resample the data to monthly %ss of '%s' using the %s column. Write {OUT}.csv (one row per month, month as YYYY-MM) and name the peak month.", map[string]string{"sum": "sum", "mean": "mean"}[agg], nc.name, d.name),
		},
		zh: []string{
			fmt.Sprintf("请分析时间趋势：按月（根据 %s）计算 %s 的%s，保存到 {OUT}.csv（列为 month（YYYY-MM）和 %s），并告诉我哪个月最高。", d.name, nc.name, zhAgg, nc.name),
			fmt.Sprintf("用 %s 列把“%s”按月求%s，写入 {OUT}.csv（每月一行，月份格式 YYYY-MM），并指出最高的月份。", d.name, nc.name, zhAgg),
		},
		steps: []schemas.RefStep{loadStep(c, 0), step("Group by the month of the date.", fmt.Sprintf(
			"df['month'] = pd.to_datetime(df[%s]).dt.strftime('%%Y-%%m')\ndf = df.groupby('month', as_index=False)[%s].%s()\n", py(d.name), py(nc.name), agg)+saveCSV+fmt.Sprintf("\nprint(df.sort_values(%s, ascending=False).head(3))", py(nc.name)))},
		answer:   fmt.Sprintf("Monthly %ss are saved to {OUT}.csv; %s had the highest %s %s (%s).", map[string]string{"sum": "total", "mean": "average"}[agg], best, en, nc.name, num(tot[best])),
		answerZh: fmt.Sprintf("每月%s已保存到 {OUT}.csv，%s 的 %s %s最高（%s）。", zhAgg, best, nc.name, zhAgg, num(tot[best])),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(months)), ColumnsInclude: []string{"month", nc.name}},
			monthTableCheck(c, fmt.Sprintf("df['month'] = pd.to_datetime(df[%s]).dt.strftime('%%Y-%%m')\ndf = df.groupby('month', as_index=False)[%s].%s()", py(d.name), py(nc.name), agg)),
			{Kind: schemas.CheckAnswer, ContainsAny: monthNames(best), NoneOf: slices.DeleteFunc(slices.Clone(months), func(m string) bool { return m == best })},
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

// monthOf returns YYYY-MM of an ISO date.
func monthOf(s string) string {
	if len(s) >= 7 {
		return strings.ReplaceAll(s[:7], "/", "-")
	}
	return ""
}

// monthsWithDates counts the distinct months of the date column idx.
func monthsWithDates(t *table, idx int) int {
	seen := map[string]bool{}
	for _, r := range t.rows {
		if m := monthOf(r[idx]); m != "" {
			seen[m] = true
		}
	}
	return len(seen)
}
