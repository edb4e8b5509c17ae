package template

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"synth/schemas"
)

func init() {
	reg := func(name string, inputs int, b func(*bctx) []spec, m func(*schemas.Task) *schemas.Reference) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryData, Subcategory: GroupTransform, FileTypes: tableTypes},
			inputs: inputs, build: b, mutate: m})
	}
	reg("table.join", 2, buildJoin, mutateCopyInput)
	reg("table.pivot", 1, withoutTotals(buildPivot), mutateCopyInput)
	reg("table.topn", 1, withoutTotals(buildTopN), mutateCopyInput)
	reg("table.addcol", 1, withoutTotals(buildAddCol), mutateCopyInput)
	reg("table.convert", 1, buildTableConvert, mutateEmptyFile)
	reg("table.monthly", 1, withoutTotals(buildMonthly), mutateCopyInput)
}

func buildJoin(c *bctx) []spec {
	a, b := c.table(0), c.table(1)
	for _, ca := range a.columns() {
		if ca.kind != kindID {
			continue
		}
		for _, cb := range b.columns() {
			if cb.name != ca.name || cb.distinct != len(b.rows) || cb.nulls > 0 {
				continue
			}
			keys := map[string]bool{}
			for _, r := range b.rows {
				keys[r[cb.idx]] = true
			}
			n := 0
			for _, r := range a.rows {
				if keys[r[ca.idx]] {
					n++
				}
			}
			if n == 0 {
				continue
			}
			var extra string
			for _, h := range b.header {
				if h != cb.name && !contains(a.header, h) {
					extra = h
					break
				}
			}
			if extra == "" {
				continue
			}
			return []spec{{
				params: "join:" + ca.name,
				en: []string{
					fmt.Sprintf("Join %s with %s on %s (an inner join, keeping only rows that match), and save the merged table to {OUT}.csv. How many rows does it have?", c.name(0), c.name(1), ca.name),
					fmt.Sprintf("Merge the two tables using the shared '%s' column so every row of %s gets the matching details from %s (inner join). Write it to {OUT}.csv and report the row count.", ca.name, c.name(0), c.name(1)),
				},
				zh: []string{
					fmt.Sprintf("请按 %s 列把 %s 和 %s 做内连接（只保留匹配的行），合并后的表保存到 {OUT}.csv，合并后有多少行？", ca.name, c.name(0), c.name(1)),
					fmt.Sprintf("用共同的“%s”列合并两张表，让 %s 的每一行带上 %s 中对应的信息（内连接），存为 {OUT}.csv 并告诉我行数。", ca.name, c.name(0), c.name(1)),
				},
				steps: []schemas.RefStep{
					step("Load both tables.", "import pandas as pd\n"+c.loadCode(0, "left")+"\n"+c.loadCode(1, "right")+"\nprint(left.shape, right.shape)"),
					step("Inner-join on the key and save.", fmt.Sprintf("df = left.merge(right, on=%s, how='inner')\n", py(ca.name))+saveCSV+"\nprint(df.shape)"),
				},
				answer:   fmt.Sprintf("The merged table has %d rows; saved to {OUT}.csv.", n),
				answerZh: fmt.Sprintf("合并后的表共有 %d 行，已保存到 {OUT}.csv。", n),
				checks: []schemas.Check{
					{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(n), ColumnsInclude: []string{ca.name, a.header[firstOther(a.header, ca.name)], extra}},
					answerInt(n),
				},
				outputs: []string{"{out}.csv"},
			}}
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func firstOther(h []string, not string) int {
	for i, x := range h {
		if x != not {
			return i
		}
	}
	return 0
}

func buildPivot(c *bctx) []spec {
	t := c.table(0)
	cats := t.categories()
	nc, ok := c.pickCol(t.additive())
	if len(cats) < 2 || !ok {
		return nil
	}
	r, col := cats[0], cats[1]
	if c.rng.IntN(2) == 0 {
		r, col = col, r
	}
	rows := t.counts(r.idx)
	cols := t.counts(col.idx)
	if len(cols) > 8 {
		return nil
	}
	var colNames []string
	for _, g := range cols {
		colNames = append(colNames, g.key)
	}
	// The total of the first cell, for a value check.
	first, cell := rows[0].key, cols[0].key
	total := 0.0
	for _, row := range t.rows {
		if row[r.idx] == first && row[col.idx] == cell && row[nc.idx] != "" {
			f, _ := strconv.ParseFloat(row[nc.idx], 64)
			total += f
		}
	}
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
			step("pivot_table with sum, then move the index back into a column.", fmt.Sprintf("df = df.pivot_table(index=%s, columns=%s, values=%s, aggfunc='sum', fill_value=0).reset_index()\ndf.columns = [str(x) for x in df.columns]\n", py(r.name), py(col.name), py(nc.name))+saveCSV+"\nprint(df)"),
		},
		answer:   fmt.Sprintf("The %d x %d pivot of %s is saved to {OUT}.csv.", len(rows), len(cols), nc.name),
		answerZh: fmt.Sprintf("%s 的透视表（%d 行 x %d 列）已保存到 {OUT}.csv。", nc.name, len(rows), len(cols)),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(rows)), ColumnsInclude: append([]string{r.name}, colNames...)},
			pyCheck(`
df = read_table('{out}.csv')
k = find_column(df, %[1]q)
row = df[df[k].astype(str) == %[2]q]
assert len(row) == 1, '{out}.csv has no single row for %[1]s = %[2]s'
v = float(row[find_column(df, %[3]q)].iloc[0])
assert number_close(v, %[4]v, 1e-3, 0.01), 'the cell (%[2]s, %[3]s) is %%s, expected %[5]s' %% v
`, r.name, first, cell, total, num(total)),
		},
		outputs: []string{"{out}.csv"},
	}}
}

func buildTopN(c *bctx) []spec {
	t := c.table(0)
	col, ok := c.pickCol(t.measures())
	if !ok {
		return nil
	}
	xs := t.floats(col.idx)
	if len(xs) < 10 {
		return nil
	}
	n := 5
	s := append([]float64(nil), xs...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	return []spec{{
		params: "topn:" + col.name,
		en: []string{
			fmt.Sprintf("Find the %d rows with the largest %s and save them, largest first, to {OUT}.csv.", n, col.name),
			fmt.Sprintf("Which records have the top %d values of '%s'? Write those rows (sorted from highest) to {OUT}.csv.", n, col.name),
		},
		zh: []string{
			fmt.Sprintf("请找出 %s 最大的 %d 行，按从大到小保存到 {OUT}.csv。", col.name, n),
			fmt.Sprintf("“%s”排名前 %d 的记录是哪些？把这些行（从高到低排序）写入 {OUT}.csv。", col.name, n),
		},
		steps:    []schemas.RefStep{loadStep(c, 0), step("nlargest keeps the top rows in order.", fmt.Sprintf("df = df.nlargest(%d, %s)\n", n, py(col.name))+saveCSV+"\nprint(df)")},
		answer:   fmt.Sprintf("The top %d rows by %s (from %s down to %s) are saved to {OUT}.csv.", n, col.name, num(s[0]), num(s[n-1])),
		answerZh: fmt.Sprintf("%s 最大的 %d 行（从 %s 到 %s）已保存到 {OUT}.csv。", col.name, n, num(s[0]), num(s[n-1])),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(n), SortedBy: &schemas.SortKey{Column: col.name, Descending: true}},
			pyCheck(`
df = read_table('{out}.csv')
s = df[find_column(df, %[1]q)]
assert number_close(float(s.max()), %[2]v, 1e-6, 1e-6), 'the largest %[1]s in {out}.csv is %%s, expected %[3]s' %% s.max()
assert number_close(float(s.min()), %[4]v, 1e-6, 1e-6), 'the smallest kept %[1]s is %%s, expected %[5]s' %% s.min()
`, col.name, s[0], num(s[0]), s[n-1], num(s[n-1])),
		},
		outputs: []string{"{out}.csv"},
	}}
}

func buildAddCol(c *bctx) []spec {
	t := c.table(0)
	nums := t.measures()
	if len(nums) < 2 {
		return nil
	}
	i := c.rng.IntN(len(nums))
	j := (i + 1 + c.rng.IntN(len(nums)-1)) % len(nums)
	a, b := nums[i], nums[j]
	name := a.name + "_x_" + b.name
	var prods []float64
	for _, r := range t.rows {
		if r[a.idx] == "" || r[b.idx] == "" {
			continue
		}
		x, _ := strconv.ParseFloat(r[a.idx], 64)
		y, _ := strconv.ParseFloat(r[b.idx], 64)
		prods = append(prods, x*y)
	}
	m := mean(prods)
	if math.IsNaN(m) {
		return nil // no row has both
	}
	return []spec{{
		params: "addcol:" + name,
		en: []string{
			fmt.Sprintf("Add a new column named %s equal to %s multiplied by %s, save the table to {OUT}.csv, and tell me the average of the new column.", name, a.name, b.name),
			fmt.Sprintf("Create a column '%s' = %s × %s for every row. Save the result as {OUT}.csv and report the mean of %s.", name, a.name, b.name, name),
		},
		zh: []string{
			fmt.Sprintf("请新增一列 %s，其值为 %s 乘以 %s，把表保存到 {OUT}.csv，并告诉我新列的平均值。", name, a.name, b.name),
			fmt.Sprintf("为每行计算“%s” = %s × %s，结果存为 {OUT}.csv，并给出 %s 的均值。", name, a.name, b.name, name),
		},
		steps:    []schemas.RefStep{loadStep(c, 0), step("Multiply the columns and save.", fmt.Sprintf("df[%s] = df[%s] * df[%s]\n", py(name), py(a.name), py(b.name))+saveCSV+fmt.Sprintf("\nprint(round(df[%s].mean(), 2))", py(name)))},
		answer:   fmt.Sprintf("Added %s; its mean is %s. Saved to {OUT}.csv.", name, num(m)),
		answerZh: fmt.Sprintf("已新增 %s 列，均值为 %s，保存到 {OUT}.csv。", name, num(m)),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows)), ColumnsInclude: []string{name, a.name, b.name}},
			pyCheck(`
df = read_table('{out}.csv')
m = float(df[find_column(df, %[1]q)].mean())
assert number_close(m, %[2]v, 1e-3, 0.01), '%[1]s has mean %%.4f, expected %[3]s' %% m
`, name, m, num(m)),
			answerNum(m),
		},
		outputs: []string{"{out}.csv"},
	}}
}

func buildTableConvert(c *bctx) []spec {
	t := c.table(0)
	targets := map[string][]string{"csv": {"xlsx", "json"}, "tsv": {"csv", "xlsx"}, "xlsx": {"csv", "json"}, "json": {"csv", "xlsx"}, "parquet": {"csv"}}[c.typ(0)]
	if len(targets) == 0 {
		return nil
	}
	to := targets[c.rng.IntN(len(targets))]
	save := map[string]string{"xlsx": "df.to_excel('{OUT}.xlsx', index=False)", "json": "df.to_json('{OUT}.json', orient='records', force_ascii=False)", "csv": "df.to_csv('{OUT}.csv', index=False)"}[to]
	return []spec{{
		params: "convert:" + to,
		en: []string{fmt.Sprintf("Convert this %s file to %s and save it as {OUT}.%s (keep every row and column).", upper(c.typ(0)), upper(to), to),
			fmt.Sprintf("Please export the data to %s format: {OUT}.%s, with all rows and columns.", upper(to), to)},
		zh: []string{fmt.Sprintf("请把这个 %s 文件转换为 %s 格式，保存为 {OUT}.%s（保留所有行和列）。", upper(c.typ(0)), upper(to), to),
			fmt.Sprintf("将数据导出为 %s 格式：{OUT}.%s，包含全部行和列。", upper(to), to)},
		steps:  []schemas.RefStep{loadStep(c, 0), step("Write it in the new format.", "import os\nos.makedirs('./output', exist_ok=True)\n"+save+"\nprint(df.shape)")},
		answer: fmt.Sprintf("Saved %d rows as %s to {OUT}.%s.", len(t.rows), upper(to), to), answerZh: fmt.Sprintf("已将 %d 行数据保存为 %s 格式：{OUT}.%s。", len(t.rows), upper(to), to),
		checks: []schemas.Check{
			fileCheck("{out}."+to, to, 10),
			{Kind: schemas.CheckTable, Path: "{out}." + to, Rows: ip(len(t.rows)), ColumnsInclude: named(headCols(t, 8))},
		},
		outputs: []string{"{out}." + to},
	}}
}

// monthOf returns YYYY-MM of an ISO date.
func monthOf(s string) string {
	if len(s) >= 7 {
		return strings.ReplaceAll(s[:7], "/", "-")
	}
	return ""
}

func buildMonthly(c *bctx) []spec {
	if s := buildMixedMonthly(c); s != nil {
		return s
	}
	t := c.table(0)
	d, ok1 := c.pickCol(t.dates())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 {
		return nil
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
		return nil // a month without values would be NaN in a mean, 0 in a sum
	}
	expect := "{"
	for i, m := range months {
		if i > 0 {
			expect += ", "
		}
		expect += fmt.Sprintf("%q: %v", m, tot[m])
	}
	expect += "}"
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
			pyCheck(`
df = read_table('{out}.csv')
got = dict(zip(df[find_column(df, 'month')].astype(str).str.slice(0, 7), df[find_column(df, %[1]q)]))
for m, v in %[2]s.items():
    assert m in got, '{out}.csv has no row for month %%s' %% m
    assert number_close(float(got[m]), v, 1e-3, 0.01), 'month %%s has %%s, expected %%.2f' %% (m, got[m], v)
`, nc.name, expect),
			{Kind: schemas.CheckAnswer, ContainsAny: monthNames(best), NoneOf: slices.DeleteFunc(slices.Clone(months), func(m string) bool { return m == best })},
		},
		outputs: []string{"{out}.csv"},
	}}
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

var monthEN = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

// monthNames are the ways an answer may name YYYY-MM.
func monthNames(ym string) []string {
	out := []string{ym}
	if len(ym) == 7 {
		if m, err := strconv.Atoi(ym[5:]); err == nil && m >= 1 && m <= 12 {
			out = append(out, monthEN[m-1], monthEN[m-1][:3]+" "+ym[:4], fmt.Sprintf("%s年%d月", ym[:4], m), ym[:4]+"/"+ym[5:])
		}
	}
	return out
}

// monthsByTotal returns the months of tot in order and the one with the
// largest total (the earliest of equals).
func monthsByTotal(tot map[string]float64) (months []string, best string) {
	months = slices.Sorted(maps.Keys(tot))
	for _, m := range months {
		if best == "" || tot[m] > tot[best] {
			best = m
		}
	}
	return months, best
}
