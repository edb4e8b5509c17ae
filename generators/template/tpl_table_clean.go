package template

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"synth/schemas"
)

func init() {
	reg := func(name string, b func(*bctx) ([]spec, error), m func(*schemas.Task) *schemas.Reference) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryData, Subcategory: GroupCleaning, FileTypes: tableTypes},
			inputs: 1, build: b, mutate: m})
	}
	reg("table.dedup", buildDedup, mutateCopyInput)
	reg("table.dropna", buildDropNA, mutateCopyInput)
	reg("table.fillna", buildFillNA, mutateCopyInput)
	reg("table.iqr", withoutTotals(buildIQR), mutateCode("df = df[~mask]", "df = df[~mask].iloc[1:]"))
	reg("table.types", buildTypes, mutateCopyInput)
	reg("table.dates", buildDates, mutateCopyInput)
}

func buildDedup(c *bctx) ([]spec, error) {
	t := c.table(0)
	d := t.duplicates()
	if d == 0 {
		return nil, nil
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
			sameTableCheck(c, "{out}.csv", "df = df.drop_duplicates()", false),
			answerInt(d), recomputed(tableSetup(c, 0), recomputedInt("df.duplicated().sum()")),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildDropNA(c *bctx) ([]spec, error) {
	t := c.table(0)
	n := t.rowsWithNulls()
	if n == 0 {
		return nil, nil
	}
	left := len(t.rows) - n
	if left == 0 || t.hasEmptyColumn() {
		// "0 rows remain" whatever the data: a column with no value (or
		// nulls spread over every row) empties the table.
		return nil, nil
	}
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
			sameTableCheck(c, "{out}.csv", "df = df.dropna()", false),
			answerInt(left), recomputed(tableSetup(c, 0), recomputedInt("len(df.dropna())")),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

// hasEmptyColumn reports a column with no value in any row.
func (t *table) hasEmptyColumn() bool {
	for _, col := range t.columns() {
		if col.nulls == len(t.rows) {
			return true
		}
	}
	return false
}

func buildFillNA(c *bctx) ([]spec, error) {
	t := c.table(0)
	var cands []column
	for _, col := range t.measures() {
		if col.nulls > 0 {
			cands = append(cands, col)
		}
	}
	col, ok := c.pickCol(cands)
	if !ok {
		return nil, nil
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
		answer: fmt.Sprintf("Filled %d missing values of %s with the median %s; saved to {OUT}.csv.", col.nulls, col.name, num(med)),
		// The median comes last: the answer check reads the last number a
		// sentence states, and a Chinese sentence gives it no verb to follow.
		answerZh: fmt.Sprintf("%s 列的 %d 个缺失值已用中位数 %s 填充，结果保存到 {OUT}.csv。", col.name, col.nulls, num(med)),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows)), ColumnsInclude: []string{col.name}},
			pyCheck(`
df = read_table(%[1]q)
col = find_column(df, %[2]q)
assert df[col].isna().sum() == 0, "%[1]s still has %%d missing values in %[2]s" %% df[col].isna().sum()
m = float(df[col].mean())
assert abs(m - %[3]g) <= 1e-3 * max(1.0, abs(%[3]g)), "%[2]s has mean %%.4f after filling, expected %[4]s (filled with the median %[5]s?)" %% m
`, "{out}.csv", col.name, after, num(after), num(med)),
			sameTableCheck(c, "{out}.csv", fmt.Sprintf("df[%[1]s] = df[%[1]s].fillna(df[%[1]s].median())", py(col.name)), false),
			answerNumNamed(med, `median|中位数`), // every phrasing asks for the median
			recomputed(tableSetup(c, 0), recomp{fmt.Sprintf("df[%s].median()", py(col.name)), 1e-3, 0.01, `median|中位数`}),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildIQR(c *bctx) ([]spec, error) {
	t := c.table(0)
	for _, col := range t.measures() {
		xs := t.floats(col.idx)
		q1, q3 := quantile(xs, 0.25), quantile(xs, 0.75)
		lo, hi := q1-1.5*(q3-q1), q3+1.5*(q3-q1)
		in, out := 0, 0
		for _, x := range xs {
			if x < lo || x > hi {
				out++
			} else {
				in++
			}
		}
		if out == 0 || q3 == q1 {
			continue
		}
		return []spec{{
			params: "iqr:" + col.name,
			en: []string{
				fmt.Sprintf("Detect outliers in %s with the 1.5×IQR rule (below Q1 - 1.5·IQR or above Q3 + 1.5·IQR, quartiles of the whole column), remove those rows, and save the rest to {OUT}.csv. How many outliers were there?", col.name),
				fmt.Sprintf("Use the interquartile range method on '%s' to drop outlier rows (1.5 IQR fences from the original quartiles). Write the cleaned data to {OUT}.csv and report how many rows were removed as outliers.", col.name),
			},
			zh: []string{
				fmt.Sprintf("请用 1.5 倍 IQR 规则检测 %s 列的异常值（小于 Q1-1.5·IQR 或大于 Q3+1.5·IQR，四分位数按整列计算），删除这些行后把数据保存到 {OUT}.csv。一共有多少个异常值？", col.name),
				fmt.Sprintf("用四分位距法（1.5 倍 IQR）去除“%s”中的异常行，清洗后的数据存为 {OUT}.csv，并说明删除了多少个异常值。", col.name),
			},
			steps: []schemas.RefStep{
				loadStep(c, 0),
				step("Compute the fences from the quartiles and keep the rows inside them.", fmt.Sprintf(
					"%[2]s\nprint(lo, hi, int(mask.sum()))\ndf = df[~mask]\n", py(col.name), iqrMask(col.name))+saveCSV),
			},
			answer:   fmt.Sprintf("%d outliers in %s (outside %s..%s) were removed; the rest is saved to {OUT}.csv.", out, col.name, num(lo), num(hi)),
			answerZh: fmt.Sprintf("%s 列共有 %d 个异常值（超出 %s 到 %s），已删除，其余数据保存到 {OUT}.csv。", col.name, out, num(lo), num(hi)),
			checks: []schemas.Check{
				pyCheck(`
df = read_table('{out}.csv')
col = find_column(df, %[1]q)
assert col is not None, '{out}.csv lacks column %[1]s'
s = df[col]
n_out = int(((s < %[2]v) | (s > %[3]v)).sum())
assert n_out == 0, '{out}.csv still has %%d outliers in %[1]s (outside %[4]s..%[5]s)' %% n_out
n_in = int(s.between(%[2]v, %[3]v).sum())
assert n_in == %[6]d, '{out}.csv keeps %%d rows with %[1]s inside the fences, expected %[6]d' %% n_in
`, col.name, lo, hi, num(lo), num(hi), in),
				sameTableCheck(c, "{out}.csv", iqrMask(col.name)+"\ndf = df[~mask]", false),
				answerInt(out), recomputed(tableSetup(c, 0)+"\n"+iqrMask(col.name), recomputedInt("mask.sum()")),
			},
			outputs: []string{"{out}.csv"},
		}}, nil
	}
	return nil, nil
}

func buildTypes(c *bctx) ([]spec, error) {
	t := c.table(0)
	for _, col := range t.columns() {
		if col.kind == kindNum || col.kind == kindDate || !sumsByName(col.name) {
			continue // the total of a price or a code means nothing
		}
		total, n, marked := 0.0, 0, false
		ok := true
		for _, r := range t.rows {
			v := r[col.idx]
			if v == "" {
				continue
			}
			if !moneyRE.MatchString(v) {
				ok = false
				break
			}
			if strings.ContainsAny(v, "$€£¥,") {
				marked = true
			}
			f, _ := parseMoney(v)
			total += f
			n++
		}
		if !ok || !marked || n < 5 {
			continue
		}
		return []spec{{
			params: "types:" + col.name,
			en: []string{
				fmt.Sprintf("The %s column is stored as text with currency signs and thousands separators. Convert it to a numeric column, save the table to {OUT}.csv, and tell me the total of %s.", col.name, col.name),
				fmt.Sprintf("Fix the data type of '%s' (strip symbols like $ and commas so it becomes a float). Save the fixed data as {OUT}.csv and report the column's sum.", col.name),
			},
			zh: []string{
				fmt.Sprintf("%s 列是带货币符号和千位分隔符的文本，请把它转换为数值列，保存到 {OUT}.csv，并告诉我 %s 的总和。", col.name, col.name),
				fmt.Sprintf("修正“%s”列的数据类型（去掉 $ 和逗号，转成浮点数），保存为 {OUT}.csv，并给出该列的合计。", col.name),
			},
			steps: []schemas.RefStep{
				loadStep(c, 0),
				step("Strip the symbols and convert.", fmt.Sprintf("df[%[1]s] = df[%[1]s].astype(str).str.replace(r'[$€£¥,\\s]', '', regex=True).replace({'': None, 'nan': None, 'None': None}).astype(float)\nprint(df[%[1]s].dtype, round(df[%[1]s].sum(), 2))\n", py(col.name))+saveCSV),
			},
			answer:   fmt.Sprintf("%s is numeric now; its total is %s. Saved to {OUT}.csv.", col.name, num(total)),
			answerZh: fmt.Sprintf("%s 已转换为数值，合计为 %s，结果保存到 {OUT}.csv。", col.name, num(total)),
			checks: []schemas.Check{
				{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows)), ColumnsInclude: []string{col.name}},
				pyCheck(`
import pandas as pd
df = read_table('{out}.csv')
s = df[find_column(df, %[1]q)]
assert pd.api.types.is_numeric_dtype(s), '%[1]s in {out}.csv is still text (dtype %%s), e.g. %%r' %% (s.dtype, s.dropna().iloc[0])
assert number_close(float(s.sum()), %[2]v, 1e-6, 0.01), '%[1]s sums to %%.2f, expected %[3]s' %% s.sum()
`, col.name, total, num(total)),
				sameTableCheck(c, "{out}.csv", fmt.Sprintf("df[%[1]s] = df[%[1]s].astype(str).str.replace(r'[$€£¥,\\s]', '', regex=True).replace({'': None, 'nan': None, 'None': None}).astype(float)", py(col.name)), false),
				answerNum(total), recomputed(tableSetup(c, 0), recomputedNum(fmt.Sprintf(
					"df[%[1]s].astype(str).str.replace(r'[$€£¥,\\s]', '', regex=True).replace({'': None, 'nan': None, 'None': None}).astype(float).sum()", py(col.name)))),
			},
			outputs: []string{"{out}.csv"},
		}}, nil
	}
	return nil, nil
}

var dmyRE = regexp.MustCompile(`^\d{2}/\d{2}/\d{4}$`)

func buildDates(c *bctx) ([]spec, error) {
	if s := buildMixedDates(c); s != nil {
		return s, nil
	}
	t := c.table(0)
	for _, col := range t.columns() {
		var iso []string
		dayFirst := false
		ok := true
		for _, r := range t.rows {
			v := r[col.idx]
			if v == "" {
				iso = append(iso, "")
				continue
			}
			if !dmyRE.MatchString(v) {
				ok = false
				break
			}
			d, err := time.Parse("02/01/2006", v)
			if err != nil {
				ok = false
				break
			}
			if d.Day() > 12 {
				dayFirst = true
			}
			iso = append(iso, d.Format("2006-01-02"))
		}
		if !ok || !dayFirst || len(iso) < 5 {
			continue
		}
		var sample []string
		step_ := max(1, len(iso)/20)
		for i := 0; i < len(iso); i += step_ {
			sample = append(sample, fmt.Sprintf("(%d, %q)", i, iso[i]))
		}
		return []spec{{
			params: "dates:" + col.name,
			en: []string{
				fmt.Sprintf("The %s column has dates written day/month/year (e.g. %s). Convert them to the ISO format YYYY-MM-DD, keep the rows in order, and save the table to {OUT}.csv.", col.name, t.rows[0][col.idx]),
				fmt.Sprintf("Standardize the date format of '%s' (currently DD/MM/YYYY) to YYYY-MM-DD and write the result to {OUT}.csv without reordering rows.", col.name),
			},
			zh: []string{
				fmt.Sprintf("%s 列的日期是“日/月/年”格式（例如 %s），请统一转换为 YYYY-MM-DD 格式，保持行顺序不变，保存到 {OUT}.csv。", col.name, t.rows[0][col.idx]),
				fmt.Sprintf("把“%s”列的日期格式从 DD/MM/YYYY 改成 YYYY-MM-DD，不要改变行的顺序，结果存为 {OUT}.csv。", col.name),
			},
			steps: []schemas.RefStep{
				loadStep(c, 0),
				step("Parse with an explicit day-first format and write ISO dates.", fmt.Sprintf("df[%[1]s] = pd.to_datetime(df[%[1]s], format='%%d/%%m/%%Y').dt.strftime('%%Y-%%m-%%d')\nprint(df[%[1]s].head())\n", py(col.name))+saveCSV),
			},
			answer:   fmt.Sprintf("The %s dates are now YYYY-MM-DD (the first is %s); saved to {OUT}.csv.", col.name, iso[0]),
			answerZh: fmt.Sprintf("%s 列已转换为 YYYY-MM-DD 格式（第一个为 %s），保存到 {OUT}.csv。", col.name, iso[0]),
			checks: []schemas.Check{
				{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows)), ColumnsInclude: []string{col.name}},
				pyCheck(`
df = read_table('{out}.csv')
s = df[find_column(df, %[1]q)].astype(str).str.slice(0, 10)
for i, want in [%[2]s]:
    assert s.iloc[i] == want, 'row %%d of {out}.csv has %[1]s %%r, expected %%r' %% (i + 1, s.iloc[i], want)
`, col.name, strings.Join(sample, ", ")),
				sameTableCheck(c, "{out}.csv", fmt.Sprintf("df[%[1]s] = pd.to_datetime(df[%[1]s], format='%%d/%%m/%%Y').dt.strftime('%%Y-%%m-%%d')", py(col.name)), true),
			},
			outputs: []string{"{out}.csv"},
		}}, nil
	}
	return nil, nil
}
