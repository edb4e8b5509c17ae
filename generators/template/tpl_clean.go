package template

import (
	"fmt"

	"synth/schemas"
)

func init() {
	register(&tmpl{Info: Info{Name: "table.dedup", Version: 1, Category: schemas.CategoryData, Subcategory: GroupCleaning, FileTypes: tableTypes},
		inputs: 1, build: buildDedup, mutate: mutateCopyInput})
	register(&tmpl{Info: Info{Name: "table.dropna", Version: 1, Category: schemas.CategoryData, Subcategory: GroupCleaning, FileTypes: tableTypes},
		inputs: 1, build: buildDropNA, mutate: mutateCopyInput})
	register(&tmpl{Info: Info{Name: "table.fillna", Version: 1, Category: schemas.CategoryData, Subcategory: GroupCleaning, FileTypes: tableTypes},
		inputs: 1, build: buildFillNA, mutate: mutateCopyInput})
}

func buildDedup(c *bctx) []spec {
	t := c.table(0)
	d := t.duplicates()
	if d == 0 {
		return nil
	}
	f := c.name(0)
	return []spec{{
		params: "dedup",
		en: []string{
			fmt.Sprintf("Please remove the duplicate rows from %s and save the cleaned data to {OUT}.csv. How many duplicate rows were there?", f),
			"There are repeated records in this dataset. Drop the duplicates, write the result to {OUT}.csv and tell me how many rows you removed.",
			"Deduplicate the table (a row counts as a duplicate when every column matches an earlier row), save it as {OUT}.csv, and report the number of duplicates removed.",
		},
		zh: []string{
			"请删除数据中的重复行，将清洗后的数据保存到 {OUT}.csv，并告诉我删除了多少行。",
			fmt.Sprintf("%s 里有重复的记录，帮我去重后保存为 {OUT}.csv，一共去掉了几条重复数据？", f),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Count the duplicate rows, drop them and save the result.",
				"dups = int(df.duplicated().sum())\ndf = df.drop_duplicates()\n"+saveCSV+"\nprint(dups, len(df))"),
		},
		answer:   fmt.Sprintf("There were %d duplicate rows; the cleaned data (%d rows) is saved to {OUT}.csv.", d, len(t.rows)-d),
		answerZh: fmt.Sprintf("共有 %d 行重复数据，去重后的 %d 行数据已保存到 {OUT}.csv。", d, len(t.rows)-d),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows) - d), NoDuplicates: true, ColumnsInclude: named(headCols(t, 6))},
			answerInt(d),
		},
		outputs: []string{"{out}.csv"},
	}}
}

func buildDropNA(c *bctx) []spec {
	t := c.table(0)
	n := t.rowsWithNulls()
	if n == 0 {
		return nil
	}
	left := len(t.rows) - n
	return []spec{{
		params: "dropna",
		en: []string{
			"Some cells in this data are empty. Remove every row that has a missing value, save the rest to {OUT}.csv, and tell me how many rows are left.",
			"Drop the rows with null values and write the cleaned table to {OUT}.csv. How many rows remain?",
			"Clean the dataset by deleting incomplete rows (any missing field), then save it as {OUT}.csv and give me the remaining row count.",
		},
		zh: []string{
			"数据里有缺失值，请删除所有包含缺失值的行，把结果保存到 {OUT}.csv，并告诉我还剩多少行。",
			"帮我把有空值的行去掉，清洗后的表格存为 {OUT}.csv，剩下几行？",
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Count missing values per column, then drop rows with any missing value and save.",
				"print(df.isna().sum())\ndf = df.dropna()\n"+saveCSV+"\nprint(len(df))"),
		},
		answer:   fmt.Sprintf("%d rows had missing values and were removed; %d rows remain, saved to {OUT}.csv.", n, left),
		answerZh: fmt.Sprintf("删除了 %d 行含缺失值的数据，剩余 %d 行，已保存到 {OUT}.csv。", n, left),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(left), NoNulls: true, ColumnsInclude: named(headCols(t, 6))},
			answerInt(left),
		},
		outputs: []string{"{out}.csv"},
	}}
}

func buildFillNA(c *bctx) []spec {
	t := c.table(0)
	var cands []column
	for _, col := range t.measures() {
		if col.nulls > 0 {
			cands = append(cands, col)
		}
	}
	col, ok := c.pickCol(cands)
	if !ok {
		return nil
	}
	vals := t.floats(col.idx)
	med := quantile(vals, 0.5)
	after := (sum(vals) + float64(col.nulls)*med) / float64(len(t.rows))
	return []spec{{
		params: "fillna:" + col.name,
		en: []string{
			fmt.Sprintf("The %s column has %d missing values. Fill them with the median of %s, keep all rows, save the table to {OUT}.csv, and tell me the median.", col.name, col.nulls, col.name),
			fmt.Sprintf("Impute the gaps in '%s' using the column median (don't drop any rows) and write the result to {OUT}.csv. What median did you use?", col.name),
		},
		zh: []string{
			fmt.Sprintf("%s 列有缺失值，请用该列的中位数填充，不要删除任何行，结果保存到 {OUT}.csv，并告诉我中位数是多少。", col.name),
			fmt.Sprintf("用中位数补全“%s”列的空值（保留所有行），保存为 {OUT}.csv，并告诉我中位数是多少。", col.name),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step(fmt.Sprintf("Fill the missing values of %s with its median and save.", col.name),
				fmt.Sprintf("med = df[%s].median()\ndf[%s] = df[%s].fillna(med)\n", py(col.name), py(col.name), py(col.name))+saveCSV+fmt.Sprintf("\nprint(med, df[%s].isna().sum())", py(col.name))),
		},
		answer:   fmt.Sprintf("Filled %d missing values of %s with the median %s; saved to {OUT}.csv.", col.nulls, col.name, num(med)),
		answerZh: fmt.Sprintf("已用中位数 %s 填充 %s 列的 %d 个缺失值，结果保存到 {OUT}.csv。", num(med), col.name, col.nulls),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows)), ColumnsInclude: []string{col.name}},
			pyCheck(`
df = read_table(%[1]q)
col = find_column(df, %[2]q)
assert df[col].isna().sum() == 0, "%[1]s still has %%d missing values in %[2]s" %% df[col].isna().sum()
m = float(df[col].mean())
assert abs(m - %[3]g) <= 1e-3 * max(1.0, abs(%[3]g)), "%[2]s has mean %%.4f after filling, expected %[4]s (filled with the median %[5]s?)" %% m
`, "{out}.csv", col.name, after, num(after), num(med)),
			answerNum(med), // every phrasing asks for the median
		},
		outputs: []string{"{out}.csv"},
	}}
}
