package template

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"synth/schemas"
	"synth/sources/tableread"
)

func init() {
	reg := func(name string, types []string, b func(*bctx) ([]spec, error), m func(*schemas.Task) *schemas.Reference) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryData, Subcategory: GroupStatistics, FileTypes: types},
			inputs: 1, build: b, mutate: m})
	}
	reg("table.stat", tableTypes, withoutTotals(buildStat), mutateAnswer)
	reg("table.topgroup", tableTypes, withoutTotals(buildTopGroup), mutateWrongGroup)
	reg("table.corr", tableTypes, withoutTotals(buildCorr), mutateAnswer)
	reg("table.shape", tableTypes, buildShape, mutateAnswer)
	reg("table.nunique", tableTypes, buildNUnique, mutateAnswer)
	reg("table.missing", tableTypes, buildMissing, mutateAnswer)
	reg("table.describe", tableTypes, withoutTotals(buildDescribe), mutateCopyInput)
	reg("xlsx.sheets", []string{"xlsx", "xls"}, buildSheets, mutateWrongGroup)
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

func buildStat(c *bctx) ([]spec, error) {
	t := c.table(0)
	col, ok := c.pickCol(t.measures())
	if !ok {
		return nil, nil
	}
	s := statKinds[c.rng.IntN(len(statKinds))]
	v := s.f(t.floats(col.idx))
	if math.IsNaN(v) {
		return nil, nil
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
		checks:   []schemas.Check{answerNumNamed(v, statLabels[s.name]), statToItsDigits(c, col.name, s.pandas, statLabels[s.name])},
	}}, nil
}

func buildTopGroup(c *bctx) ([]spec, error) {
	t := c.table(0)
	cat, ok := c.pickCol(t.categories())
	if !ok {
		return nil, nil
	}
	gs := t.counts(cat.idx)
	best, n, unique := argmax(gs, sum)
	if !unique {
		return nil, nil
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
			fmt.Sprintf("出现最多的 %s 是 %s，共 %d 行。", cat.name, best.key, int(n))), answerInt(int(n)),
			recomputed(tableSetup(c, 0), recomputedInt(fmt.Sprintf("df[%s].value_counts().max()", py(cat.name))))},
	}}, nil
}

func buildCorr(c *bctx) ([]spec, error) {
	t := c.table(0)
	a, b, r, ok := correlatedMeasures(c, t)
	if !ok {
		return nil, nil
	}
	return []spec{{
		params: fmt.Sprintf("corr:%s:%s", a.name, b.name),
		en:     []string{fmt.Sprintf("What is the Pearson correlation coefficient between %s and %s? Give it to 3 decimals.", a.name, b.name), fmt.Sprintf("How strongly are '%s' and '%s' correlated? Report Pearson's r.", a.name, b.name)},
		zh:     []string{fmt.Sprintf("%s 和 %s 之间的皮尔逊相关系数是多少？保留 3 位小数。", a.name, b.name), fmt.Sprintf("“%s”与“%s”的相关性有多强？请给出皮尔逊相关系数 r。", a.name, b.name)},
		steps:  []schemas.RefStep{loadStep(c, 0), step("pandas corr uses the rows where both are present.", fmt.Sprintf("print(round(df[%s].corr(df[%s]), 3))", py(a.name), py(b.name)))},
		answer: fmt.Sprintf("The Pearson correlation between %s and %s is %.3f.", a.name, b.name, r), answerZh: fmt.Sprintf("%s 与 %s 的皮尔逊相关系数为 %.3f。", a.name, b.name, r),
		checks: []schemas.Check{{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(r, 6), AbsTol: 0.0051}},
			recomputed(tableSetup(c, 0), recomp{fmt.Sprintf("df[%s].corr(df[%s])", py(a.name), py(b.name)), 0, 0.0051, ""}),
			valueToItsDigits(c, fmt.Sprintf("df[%s].corr(df[%s])", py(a.name), py(b.name)), "")},
	}}, nil
}

func buildShape(c *bctx) ([]spec, error) {
	t := c.table(0)
	if len(t.rows) == len(t.header) {
		return nil, nil
	}
	return []spec{{
		params: "shape",
		en:     []string{"How many rows and columns does this dataset have?", "What's the size of the table: number of rows and number of columns?"},
		zh:     []string{"这个数据集有多少行、多少列？", "表格的规模是多少：行数和列数各是多少？"},
		steps:  []schemas.RefStep{loadStep(c, 0)},
		answer: fmt.Sprintf("It has %d rows and %d columns.", len(t.rows), len(t.header)), answerZh: fmt.Sprintf("共有 %d 行、%d 列。", len(t.rows), len(t.header)),
		// In order: rows and columns swapped is a wrong shape.
		checks: []schemas.Check{answerInt(len(t.rows)), answerInt(len(t.header)), answerInOrder([]int{len(t.rows), len(t.header)}, shapeLabels),
			recomputed(tableSetup(c, 0), recomputedInt("df.shape[0]"), recomputedInt("df.shape[1]")),
			inOrderRecomputed(tableSetup(c, 0), []string{"int(df.shape[0])", "int(df.shape[1])"}, shapeLabels)},
	}}, nil
}

// nameNumber is a number standing alone in a column's name ("Q23, 2017"),
// not digits glued to a word ("Q1", "pm2.5").
var nameNumber = regexp.MustCompile(`(^|[^\pL\d_.])\d`)

// statesNumbers reports a column name with numbers of its own: an answer
// naming it states them beside the count it gives, and the answer check
// reads a list of guesses. Templates whose answer is one number and names
// a column leave such columns out.
func statesNumbers(name string) bool { return nameNumber.MatchString(name) }

func buildNUnique(c *bctx) ([]spec, error) {
	t := c.table(0)
	col, ok := c.pickCol(slices.DeleteFunc(t.labels(), func(c column) bool { return statesNumbers(c.name) }))
	if !ok {
		return nil, nil
	}
	return []spec{{
		params: "nunique:" + col.name,
		en:     []string{fmt.Sprintf("How many distinct values does the %s column have?", col.name), fmt.Sprintf("Count the unique entries in '%s' (ignoring missing values).", col.name)},
		zh:     []string{fmt.Sprintf("%s 列有多少个不同的取值？", col.name), fmt.Sprintf("统计“%s”列中不重复值的个数（忽略缺失值）。", col.name)},
		steps:  []schemas.RefStep{loadStep(c, 0), step("nunique skips missing values.", fmt.Sprintf("print(df[%s].nunique())", py(col.name)))},
		answer: fmt.Sprintf("%s has %d distinct values.", col.name, col.distinct), answerZh: fmt.Sprintf("%s 列共有 %d 个不同的取值。", col.name, col.distinct),
		checks: []schemas.Check{answerInt(col.distinct), recomputed(tableSetup(c, 0), recomputedInt(fmt.Sprintf("df[%s].nunique()", py(col.name))))},
	}}, nil
}

func buildMissing(c *bctx) ([]spec, error) {
	t := c.table(0)
	var with []column
	total := 0
	for _, col := range t.columns() {
		total += col.nulls
		if col.nulls > 0 {
			with = append(with, col)
		}
	}
	if total == 0 {
		return nil, nil
	}
	var names []string
	for _, col := range with {
		names = append(names, col.name)
	}
	return []spec{{
		params: "missing",
		en:     []string{"How many missing values are there in the whole dataset, and which columns have them?", "Check the data for empty cells: give the total number of missing values and the columns that contain any."},
		zh:     []string{"整个数据集中一共有多少个缺失值？哪些列有缺失？", "检查数据中的空值：缺失值总数是多少，分布在哪些列？"},
		steps:  []schemas.RefStep{loadStep(c, 0), step("Count nulls per column.", "na = df.isna().sum()\nprint(int(na.sum()))\nprint(na[na > 0])")},
		answer: fmt.Sprintf("There are %d missing values, in %s.", total, strings.Join(names, ", ")), answerZh: fmt.Sprintf("共有 %d 个缺失值，分布在 %s 列。", total, strings.Join(names, "、")),
		checks: []schemas.Check{answerInt(total), answerHas(names...), recomputed(tableSetup(c, 0), recomputedInt("df.isna().sum().sum()"))},
	}}, nil
}

// workbookSheets reads the table on each sheet of an xlsx or xls workbook.
func workbookSheets(path, typ string) ([]tableread.Sheet, error) {
	if typ == "xls" {
		return tableread.ReadXLSSheets(path)
	}
	return tableread.ReadXLSXSheets(path)
}

func buildSheets(c *bctx) ([]spec, error) {
	sheets, err := workbookSheets(c.files[0].Path, c.typ(0))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", c.name(0), err)
	}
	if len(sheets) < 2 {
		return nil, nil
	}
	var names, parts []string
	code := "import pandas as pd\n"
	for _, s := range sheets {
		if errors.Is(s.Err, tableread.ErrUnreadable) {
			return nil, fmt.Errorf("read %s: %w", c.name(0), s.Err)
		}
		if s.Err != nil {
			return nil, nil // a sheet without a table it is sure of: its row count is a guess
		}
		names = append(names, s.Name)
		parts = append(parts, fmt.Sprintf("%s (%d rows)", s.Name, len(s.Table.Rows)))
		code += fmt.Sprintf("print(%s, len(%s))\n", py(s.Name), s.Table.Layout.Call(c.dpath(0)))
	}
	return []spec{{
		params: "sheets",
		en:     []string{"What sheets does this Excel workbook contain, and how many data rows does each have?", "List the worksheets in the file with their row counts (not counting the header)."},
		zh:     []string{"这个 Excel 工作簿包含哪些工作表？每个表有多少行数据？", "列出文件中的所有工作表及其数据行数（不含表头）。"},
		steps:  []schemas.RefStep{step("Read each sheet's table: titles above it, notes below it and columns beside it left out.", strings.TrimSuffix(code, "\n"))},
		answer: "The workbook has these sheets: " + strings.Join(parts, ", ") + ".", answerZh: "工作簿包含以下工作表：" + strings.Join(parts, "，") + "。",
		checks: []schemas.Check{answerHas(names...)},
	}}, nil
}

func buildDescribe(c *bctx) ([]spec, error) {
	t := c.table(0)
	ms := t.measures()
	if len(ms) == 0 {
		return nil, nil
	}
	// Only measures are described: the mean of an id or a rank means nothing.
	cols := names(ms)
	return []spec{{
		params: "describe",
		en:     []string{fmt.Sprintf("Compute summary statistics (count, mean, std, min, quartiles, max) of %s and save them to {OUT}.csv, with the statistic names in the first column.", joinAnd(cols)), fmt.Sprintf("Produce a describe()-style table of %s and write it to {OUT}.csv (statistics as rows, first column naming them).", joinAnd(cols))},
		zh:     []string{fmt.Sprintf("请计算 %s 的描述性统计（count、mean、std、min、四分位数、max），保存到 {OUT}.csv，第一列为统计量名称。", joinZh(cols)), fmt.Sprintf("生成 %s 的 describe() 统计表，写入 {OUT}.csv（每行一个统计量，第一列是名称）。", joinZh(cols))},
		steps:  []schemas.RefStep{loadStep(c, 0), step("describe() the measures and keep its index as a column.", fmt.Sprintf("df = df[%s].describe().reset_index().rename(columns={'index': 'stat'})\n", pyList(cols))+saveCSV+"\nprint(df)")},
		answer: "The summary statistics are saved to {OUT}.csv.", answerZh: "描述性统计已保存到 {OUT}.csv。",
		checks:  []schemas.Check{describeCheck(c, cols)},
		outputs: []string{"{out}.csv"},
	}}, nil
}
