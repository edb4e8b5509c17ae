package template

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"synth/schemas"
)

// Messy columns: the dates of a merged export, written in several layouts,
// and amounts stored as text with thousands separators. The cleaning and
// aggregation templates pick them on the files that have them, so a solver
// has to notice the mess and parse it; the checks hold the true values.

// mixedLayouts are the date layouts of a merged export, in the order the
// reference tries them: ISO, month/day/year with slashes, day.month.year
// with dots, and "Jan 2, 2006".
var mixedLayouts = []string{"2006-01-02", "01/02/2006", "02.01.2006", "Jan 2, 2006"}

// mixedLayoutsPy are mixedLayouts as strptime formats, after the first.
const mixedLayoutsPy = "['%m/%d/%Y', '%d.%m.%Y', '%b %d, %Y']"

// mixedDates returns the cells of column idx as ISO dates ("" for a blank)
// when every other cell is in one of mixedLayouts and at least two layouts
// occur; ok is false otherwise.
func (t *table) mixedDates(idx int) (iso []string, ok bool) {
	used := map[int]bool{}
	for _, r := range t.rows {
		v := strings.TrimSpace(r[idx])
		if v == "" {
			iso = append(iso, "")
			continue
		}
		found := false
		for k, l := range mixedLayouts {
			if d, err := time.Parse(l, v); err == nil {
				iso = append(iso, d.Format("2006-01-02"))
				used[k], found = true, true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return iso, len(used) >= 2
}

// mixedDateCol is the first column of a csv or tsv file holding dates in
// mixed layouts, with its dates as ISO; ok is false when there is none.
// Only delimited text is used: other readers may turn such cells into
// dates themselves, guessing the ambiguous ones.
func (c *bctx) mixedDateCol(t *table) (col column, iso []string, ok bool) {
	if typ := c.typ(0); typ != "csv" && typ != "tsv" {
		return column{}, nil, false
	}
	for _, col := range t.columns() {
		if iso, ok := t.mixedDates(col.idx); ok {
			return col, iso, true
		}
	}
	return column{}, nil, false
}

// parseMixedDates is the reference code that parses column col of df into
// the Series when, trying each layout in turn, and prints how many dates
// are left unparsed (none, on the files it is used for).
func parseMixedDates(col string) string {
	return fmt.Sprintf("d = df[%s].astype(str).str.strip()\nwhen = pd.to_datetime(d, format='%%Y-%%m-%%d', errors='coerce')\nfor f in %s:\n    when = when.fillna(pd.to_datetime(d, format=f, errors='coerce'))\nprint(int(when.isna().sum() - d.isin(['nan', 'None', '']).sum()), 'dates left unparsed')\n",
		py(col), mixedLayoutsPy)
}

// layoutNote tells the solver how the layouts of a mixed date column read.
func layoutNote(col string, zh bool) string {
	if zh {
		return fmt.Sprintf("%s 列的日期格式混杂（带斜杠的是 月/日/年，带点的是 日.月.年）", col)
	}
	return fmt.Sprintf("The dates in %s come in several formats (slashes are month/day/year, dots are day.month.year)", col)
}

// moneyCol is the first text column of t whose every cell is an amount
// with thousands separators or a currency sign, with its values; ok is
// false when there is none.
func moneyCol(t *table) (col column, vals []float64, blank []bool, ok bool) {
	for _, col := range t.columns() {
		if col.kind == kindNum || col.kind == kindDate || !sumsByName(col.name) {
			continue
		}
		vals, blank = nil, nil
		marked, good := false, true
		for _, r := range t.rows {
			v := r[col.idx]
			if strings.TrimSpace(v) == "" {
				vals, blank = append(vals, 0), append(blank, true)
				continue
			}
			if !moneyRE.MatchString(v) {
				good = false
				break
			}
			marked = marked || strings.ContainsAny(v, "$€£¥,")
			f, _ := parseMoney(v)
			vals, blank = append(vals, f), append(blank, false)
		}
		if good && marked {
			return col, vals, blank, true
		}
	}
	return column{}, nil, nil, false
}

// buildMixedDates is table.dates on a column of mixed layouts: every date
// to YYYY-MM-DD, rows in order. The check compares every dated row.
func buildMixedDates(c *bctx) []spec {
	t := c.table(0)
	col, iso, ok := c.mixedDateCol(t)
	if !ok {
		return nil
	}
	var want []string
	examples := map[int]string{}
	for i, v := range iso {
		if v == "" {
			continue
		}
		want = append(want, fmt.Sprintf("(%d, %q)", i, v))
		for k, l := range mixedLayouts {
			if _, seen := examples[k]; !seen {
				if _, err := time.Parse(l, strings.TrimSpace(t.rows[i][col.idx])); err == nil {
					examples[k] = strings.TrimSpace(t.rows[i][col.idx])
				}
			}
		}
	}
	var ex []string
	for k := range mixedLayouts {
		if e, ok := examples[k]; ok {
			ex = append(ex, e)
		}
	}
	first := ""
	for _, v := range iso {
		if v != "" {
			first = v
			break
		}
	}
	return []spec{{
		params: "mixeddates:" + col.name,
		en: []string{
			fmt.Sprintf("%s, e.g. %s. Convert every date to YYYY-MM-DD, keep the rows in their order, and save the table to {OUT}.csv.", layoutNote(col.name, false), strings.Join(ex, ", ")),
			fmt.Sprintf("Clean up the '%s' column: it mixes layouts such as %s (slashes are month/day/year, dots day.month.year). Standardize all of them to ISO YYYY-MM-DD and write the table to {OUT}.csv without reordering rows.", col.name, strings.Join(ex, ", ")),
		},
		zh: []string{
			fmt.Sprintf("%s，例如 %s。请把所有日期统一为 YYYY-MM-DD 格式，保持行顺序不变，保存到 {OUT}.csv。", layoutNote(col.name, true), strings.Join(ex, "、")),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Parse each date layout explicitly and write ISO dates.", parseMixedDates(col.name)+
				fmt.Sprintf("df[%s] = when.dt.strftime('%%Y-%%m-%%d')\nprint(df[%s].head())\n", py(col.name), py(col.name))+saveCSV),
		},
		answer:   fmt.Sprintf("All %s dates are now YYYY-MM-DD (the first is %s); saved to {OUT}.csv.", col.name, first),
		answerZh: fmt.Sprintf("%s 列已统一为 YYYY-MM-DD 格式（第一个为 %s），保存到 {OUT}.csv。", col.name, first),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(t.rows)), ColumnsInclude: []string{col.name}},
			pyCheck(`
df = read_table('{out}.csv')
s = df[find_column(df, %[1]q)].astype(str).str.strip().str.slice(0, 10)
bad = [(i, s.iloc[i], want) for i, want in [%[2]s] if s.iloc[i] != want]
assert not bad, '%%d rows of {out}.csv have a wrong %[1]s; row %%d has %%r, expected %%r' %% (len(bad), bad[0][0] + 1, bad[0][1], bad[0][2])
`, col.name, strings.Join(want, ", ")),
			sameTableCheck(c, "{out}.csv", withoutPrints(parseMixedDates(col.name)+fmt.Sprintf("df[%s] = when.dt.strftime('%%Y-%%m-%%d')", py(col.name))), true),
		},
		outputs: []string{"{out}.csv"},
	}}
}

// buildMixedMonthly is table.monthly on a column of mixed date layouts,
// summing an amount column stored as text with thousands separators when
// the file has one (else an additive number column).
func buildMixedMonthly(c *bctx) []spec {
	t := c.table(0)
	d, iso, ok := c.mixedDateCol(t)
	if !ok {
		return nil
	}
	var name string
	var vals []float64
	var blank []bool
	money := false
	if mc, mv, mb, ok := moneyCol(t); ok {
		name, vals, blank, money = mc.name, mv, mb, true
	} else if nc, ok := c.pickCol(t.additive()); ok {
		name = nc.name
		for _, r := range t.rows {
			f, err := strconv.ParseFloat(r[nc.idx], 64)
			vals, blank = append(vals, f), append(blank, err != nil)
		}
	} else {
		return nil
	}
	tot := map[string]float64{}
	for i, day := range iso {
		if day == "" {
			continue
		}
		tot[day[:7]] += 0 // a month with blank amounts sums to 0, as pandas does
		if !blank[i] {
			tot[day[:7]] += vals[i]
		}
	}
	months, best := monthsByTotal(tot)
	if len(months) < 3 {
		return nil
	}
	convert := ""
	if money {
		convert = fmt.Sprintf("df[%[1]s] = pd.to_numeric(df[%[1]s].astype(str).str.replace(r'[$€£¥,\\s]', '', regex=True), errors='coerce')\n", py(name))
	}
	return []spec{{
		params: fmt.Sprintf("mixedmonthly:%s:%s", d.name, name),
		en: []string{
			fmt.Sprintf("Compute the total %s per month from %s and save it to {OUT}.csv with columns month (YYYY-MM) and %s; which month had the highest total? %s.", name, d.name, name, layoutNote(d.name, false)),
			fmt.Sprintf("I need monthly sums of '%s' by the month of %s, written to {OUT}.csv (one row per month, month as YYYY-MM), and the peak month. %s.", name, d.name, layoutNote(d.name, false)),
		},
		zh: []string{
			fmt.Sprintf("请按 %s 的月份计算 %s 的总和，保存到 {OUT}.csv（列为 month（YYYY-MM）和 %s），并告诉我哪个月的总和最高。%s。", d.name, name, name, layoutNote(d.name, true)),
		},
		steps: []schemas.RefStep{loadStep(c, 0), step("Parse the mixed dates and the amounts, then sum per month.", parseMixedDates(d.name)+convert+
			fmt.Sprintf("df['month'] = when.dt.strftime('%%Y-%%m')\ndf = df.groupby('month', as_index=False)[%s].sum()\n", py(name))+saveCSV+fmt.Sprintf("\nprint(df.sort_values(%s, ascending=False).head(3))", py(name)))},
		answer:   fmt.Sprintf("Monthly totals are saved to {OUT}.csv; %s had the highest total %s (%s).", best, name, num(tot[best])),
		answerZh: fmt.Sprintf("每月合计已保存到 {OUT}.csv，%s 的 %s 总和最高（%s）。", best, name, num(tot[best])),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(months)), ColumnsInclude: []string{"month", name}},
			monthTableCheck(c, parseMixedDates(d.name)+convert+fmt.Sprintf("df['month'] = when.dt.strftime('%%Y-%%m')\ndf = df.groupby('month', as_index=False)[%s].sum()", py(name))),
			{Kind: schemas.CheckAnswer, ContainsAny: monthNames(best), NoneOf: slices.DeleteFunc(slices.Clone(months), func(m string) bool { return m == best })},
		},
		outputs: []string{"{out}.csv"},
	}}
}

// messTemplates clean or aggregate the messy columns of a table.
var messTemplates = []string{"table.dates", "table.monthly", "table.types"}

// messyFirst moves the templates that work on a table's messy columns to
// the front of cands when the table has a column of mixed date layouts or
// of amounts with thousands separators, so such files get the tasks that
// make a solver deal with their mess; the order is otherwise kept.
func messyFirst(c *bctx, cands []*tmpl) []*tmpl {
	if !slices.Contains(tableTypes, c.typ(0)) || !hasMess(c) {
		return cands
	}
	var first, rest []*tmpl
	for _, t := range cands {
		if slices.Contains(messTemplates, t.Name) {
			first = append(first, t)
		} else {
			rest = append(rest, t)
		}
	}
	return append(first, rest...)
}

// hasMess reports whether file 0 is a table with a column of mixed date
// layouts or of amounts with thousands separators; false when it does not
// parse as a table.
func hasMess(c *bctx) bool {
	t, err := tableFile.of(c, 0)
	if err != nil {
		return false
	}
	if _, _, ok := c.mixedDateCol(t); ok {
		return true
	}
	_, _, _, ok := moneyCol(t)
	return ok
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

// monthEN are the months' English names, January first.
var monthEN = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
