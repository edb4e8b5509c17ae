package template

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"synth/schemas"
)

func init() {
	reg := func(name string, inputs int, b func(*bctx) ([]spec, error), m func(*schemas.Task) *schemas.Reference) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryData, Subcategory: GroupTransform, FileTypes: tableTypes},
			inputs: inputs, build: b, mutate: m})
	}
	reg("table.sort", 1, withoutTotals(buildSort), mutateCode("ascending=False", "ascending=True", "ascending=True", "ascending=False"))
	reg("table.filter", 1, withoutTotals(buildFilter), mutateCopyInput)
	reg("table.topn", 1, withoutTotals(buildTopN), mutateCopyInput)
	reg("table.addcol", 1, withoutTotals(buildAddCol), mutateCopyInput)
	reg("table.convert", 1, buildTableConvert, mutateEmptyFile)
	reg("table.join", 2, buildJoin, mutateCopyInput)
}

func buildSort(c *bctx) ([]spec, error) {
	t := c.table(0)
	col, ok := c.pickCol(t.measures())
	if !ok {
		return nil, nil
	}
	desc := c.rng.IntN(2) == 0
	lo, hi := minMax(t.floats(col.idx))
	first, word, zhWord := hi, "descending", "降序"
	if !desc {
		first, word, zhWord = lo, "ascending", "升序"
	}
	sortCode := fmt.Sprintf("df = df.sort_values(%s, ascending=%s)", py(col.name), pyBool(!desc))
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
			step("Sort by the column and save.", sortCode+"\n"+saveCSV+fmt.Sprintf("\nprint(df[%s].iloc[0])", py(col.name))),
		},
		answer:   fmt.Sprintf("The data sorted by %s (%s) is saved to {OUT}.csv; the first row has %s = %s.", col.name, word, col.name, num(first)),
		answerZh: fmt.Sprintf("已按 %s %s排序并保存到 {OUT}.csv，第一行的 %s 为 %s。", col.name, zhWord, col.name, num(first)),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows)), SortedBy: &schemas.SortKey{Column: col.name, Descending: desc}},
			sameTableCheck(c, "{out}.csv", sortCode, false),
			firstCheck(first), recomputed(tableSetup(c, 0)+"\n"+sortCode, firstRecomputed(first, fmt.Sprintf("df[%s].iloc[0]", py(col.name)))),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildFilter(c *bctx) ([]spec, error) {
	t := c.table(0)
	cat, ok1 := c.pickCol(t.categories())
	nc, ok2 := c.pickCol(t.measures())
	if !ok1 || !ok2 {
		return nil, nil
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
		return nil, nil
	}
	ts := num(thr)
	filterCode := fmt.Sprintf("df = df[(df[%s] == %s) & (df[%s] > %s)]", py(cat.name), py(val), py(nc.name), ts)
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
				filterCode+"\n"+saveCSV+"\nprint(len(df))"),
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
			sameTableCheck(c, "{out}.csv", filterCode, false),
			answerInt(n), recomputed(tableSetup(c, 0)+"\n"+filterCode, recomputedInt("len(df)")),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildJoin(c *bctx) ([]spec, error) {
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
			if !joinable(a, b, ca, cb) {
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
					joinTableCheck(c, ca.name),
					answerInt(n), recomputed("import pandas as pd\n"+c.loadCode(0, "left")+"\n"+c.loadCode(1, "right")+fmt.Sprintf("\ndf = left.merge(right, on=%s, how='inner')", py(ca.name)),
						recomputedInt("len(df)")),
				},
				outputs: []string{"{out}.csv"},
			}}, nil
		}
	}
	return nil, nil
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

func buildTopN(c *bctx) ([]spec, error) {
	t := c.table(0)
	col, ok := c.pickCol(t.measures())
	if !ok {
		return nil, nil
	}
	xs := t.floats(col.idx)
	if len(xs) < 10 {
		return nil, nil
	}
	n := 5
	s := append([]float64(nil), xs...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	if s[n-1] == s[n] {
		return nil, nil // a tie across the cut: which rows are the top n is not defined
	}
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
			sameTableCheck(c, "{out}.csv", fmt.Sprintf("df = df.nlargest(%d, %s)", n, py(col.name)), false),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildAddCol(c *bctx) ([]spec, error) {
	t := c.table(0)
	a, b, ok := productPair(c, t)
	if !ok {
		return nil, nil // no two measures whose product means something
	}
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
		return nil, nil // no row has both
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
		steps:    []schemas.RefStep{loadStep(c, 0), step("Multiply the columns and save.", fmt.Sprintf("df[%s] = df[%s] * df[%s]\n", py(name), py(a.name), py(b.name))+saveCSV+fmt.Sprintf("\nprint(df[%s].mean())", py(name)))},
		answer:   fmt.Sprintf("Added %s; its mean is %s. Saved to {OUT}.csv.", name, num(m)),
		answerZh: fmt.Sprintf("已新增 %s 列，均值为 %s，保存到 {OUT}.csv。", name, num(m)),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows)), ColumnsInclude: []string{name, a.name, b.name}},
			sameTableCheck(c, "{out}.csv", fmt.Sprintf("df[%s] = df[%s] * df[%s]", py(name), py(a.name), py(b.name)), false),
			answerNum(m), recomputed(tableSetup(c, 0), recomputedNum(fmt.Sprintf("(df[%s] * df[%s]).mean()", py(a.name), py(b.name)))),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildTableConvert(c *bctx) ([]spec, error) {
	t := c.table(0)
	targets := map[string][]string{"csv": {"xlsx", "json"}, "tsv": {"csv", "xlsx"}, "xlsx": {"csv", "json"}, "xls": {"xlsx", "csv"}, "json": {"csv", "xlsx"}, "parquet": {"csv"}}[c.typ(0)]
	if len(targets) == 0 {
		return nil, nil
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
			// Every named column's values, in the input's row order.
			sameTableCheck(c, "{out}."+to, "df = df[[x for x in df.columns if not str(x).startswith('Unnamed:')]]", true),
		},
		outputs: []string{"{out}." + to},
	}}, nil
}

// firstCheck is the answer check on a value read off a table's first row
// (table.sort, and table.chain's top group): a whole number exactly
// (27954 is not the first row's 27953, which a relative tolerance of 0.1%
// would let through), else within answerNum's tolerance.
func firstCheck(v float64) schemas.Check {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return answerInt(int(v))
	}
	return answerNum(v)
}

// firstRecomputed is firstCheck's tolerance for the value expr recomputes.
func firstRecomputed(v float64, expr string) recomp {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return recomp{expr, 0, 0.001, ""}
	}
	return recomputedNum(expr)
}
