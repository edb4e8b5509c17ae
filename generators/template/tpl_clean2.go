package template

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"synth/schemas"
)

func init() {
	reg := func(name string, b func(*bctx) []spec) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryData, Subcategory: GroupCleaning, FileTypes: tableTypes},
			inputs: 1, build: b, mutate: mutateCopyInput})
	}
	register(&tmpl{Info: Info{Name: "table.iqr", Version: 1, Category: schemas.CategoryData, Subcategory: GroupCleaning, FileTypes: tableTypes},
		inputs: 1, build: withoutTotals(buildIQR), mutate: mutateCode("df = df[~mask]", "df = df[~mask].iloc[1:]")})
	reg("table.types", buildTypes)
	reg("table.dates", buildDates)
}

func buildIQR(c *bctx) []spec {
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
					"q1, q3 = df[%[1]s].quantile(0.25), df[%[1]s].quantile(0.75)\niqr = q3 - q1\nlo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr\nmask = (df[%[1]s] < lo) | (df[%[1]s] > hi)\nprint(lo, hi, int(mask.sum()))\ndf = df[~mask]\n", py(col.name))+saveCSV),
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
				answerInt(out),
			},
			outputs: []string{"{out}.csv"},
		}}
	}
	return nil
}

// moneyRE matches an amount: an optional currency sign, then digits with
// thousands separators in groups of three, so a decimal comma ("45,06")
// is not read as one.
var moneyRE = regexp.MustCompile(`^\s*[$€£¥]?\s*-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s*$`)

func parseMoney(s string) (float64, bool) {
	s = strings.NewReplacer("$", "", "€", "", "£", "", "¥", "", ",", "", " ", "").Replace(s)
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

func buildTypes(c *bctx) []spec {
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
				answerNum(total),
			},
			outputs: []string{"{out}.csv"},
		}}
	}
	return nil
}

var dmyRE = regexp.MustCompile(`^\d{2}/\d{2}/\d{4}$`)

func buildDates(c *bctx) []spec {
	if s := buildMixedDates(c); s != nil {
		return s
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
			},
			outputs: []string{"{out}.csv"},
		}}
	}
	return nil
}
