package template

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"synth/schemas"
)

// Composed tasks chain dependent steps over one table (table.chain) or two
// tables joined on a key that links them (table.chainjoin): clean a
// column, filter rows, join, aggregate per group, take each group's
// share. Each step's result feeds the next, the query asks for the lot,
// and the answer (the top group and its value) and the per-group table
// depend on every step. The reference is the chain's steps: the load,
// one step per link, then the report that saves the table and prints the
// top group, so that Task.Steps links sit between the first and the last
// reference step (SkipSolutions reads them there).

func init() {
	register(&tmpl{Info: Info{Name: "table.chain", Version: 1, Category: schemas.CategoryData, Subcategory: GroupTransform, FileTypes: tableTypes},
		inputs: 1, build: withoutTotals(buildChain), composed: true})
	register(&tmpl{Info: Info{Name: "table.chainjoin", Version: 1, Category: schemas.CategoryData, Subcategory: GroupTransform, FileTypes: tableTypes},
		inputs: 2, build: buildChainJoin, composed: true})
}

// chainLink is one step of a chain: the clause the query states, the pandas
// code that does it to df, and the same on Go's rows, from which the
// expected values are derived (the reference's printed output and the
// checks' recomputation in the sandbox must agree with them).
type chainLink struct {
	en, zh  string
	thought string
	code    string
	apply   func(*table) *table
}

// derived is t's header with rows, for the next link.
func derived(t *table, header []string, rows [][]string) *table {
	return &table{header: header, rows: rows}
}

// cleanLink fills the measure m's missing cells with its median, or drops
// duplicate rows; ok is false when the table has neither to clean.
func cleanLink(c *bctx, t *table, m column) (chainLink, bool) {
	if m.nulls > 0 {
		med := quantile(t.floats(m.idx), 0.5)
		fill := strconv.FormatFloat(med, 'g', -1, 64)
		return chainLink{
			en:      fmt.Sprintf("fill the missing values of %s with its median", colRef(m.name)),
			zh:      fmt.Sprintf("用 %s 的中位数填充其缺失值", m.name),
			thought: fmt.Sprintf("Fill the missing values of %s with its median.", m.name),
			code:    fmt.Sprintf("df[%[1]s] = df[%[1]s].fillna(df[%[1]s].median())\nprint(df[%[1]s].isna().sum(), len(df))", py(m.name)),
			apply: func(d *table) *table {
				rows := make([][]string, len(d.rows))
				for i, r := range d.rows {
					r = append([]string(nil), r...)
					if r[m.idx] == "" {
						r[m.idx] = fill
					}
					rows[i] = r
				}
				return derived(d, d.header, rows)
			},
		}, true
	}
	if t.duplicates() > 0 {
		return chainLink{
			en:      "drop the duplicate rows (rows equal to an earlier row in every column)",
			zh:      "删除重复行（每一列都与前面某行相同的行）",
			thought: "Drop the duplicate rows.",
			code:    "df = df.drop_duplicates()\nprint(len(df))",
			apply: func(d *table) *table {
				seen := map[string]bool{}
				var rows [][]string
				for _, r := range d.rows {
					k := strings.Join(r, "\x00")
					if !seen[k] {
						rows = append(rows, r)
					}
					seen[k] = true
				}
				return derived(d, d.header, rows)
			},
		}, true
	}
	return chainLink{}, false
}

// filterLink keeps the rows whose measure f is above its lower quartile.
func filterLink(t *table, f column) (chainLink, bool) {
	thr := quantile(t.floats(f.idx), 0.25)
	if f.isInt {
		thr = math.Round(thr)
	} else {
		thr = round(thr, 1)
	}
	ts := num(thr)
	if v, err := strconv.ParseFloat(ts, 64); err != nil || v != thr {
		return chainLink{}, false
	}
	return chainLink{
		en:      fmt.Sprintf("keep only the rows where %s is above %s", colRef(f.name), ts),
		zh:      fmt.Sprintf("只保留 %s 大于 %s 的行", f.name, ts),
		thought: fmt.Sprintf("Keep the rows with %s > %s.", f.name, ts),
		code:    fmt.Sprintf("df = df[df[%s] > %s]\nprint(len(df))", py(f.name), ts),
		apply: func(d *table) *table {
			var rows [][]string
			for _, r := range d.rows {
				if v, err := strconv.ParseFloat(r[f.idx], 64); err == nil && r[f.idx] != "" && v > thr {
					rows = append(rows, r)
				}
			}
			return derived(d, d.header, rows)
		},
	}, true
}

// excludeLink leaves out the rows of one group of cat: the group that
// would come out on top of the aggregate without it, so that the answer
// moves when it is skipped. ok is false when fewer than three groups
// remain after the links before it, or the top is tied.
func excludeLink(t *table, before []chainLink, cat, m string, f func([]float64) float64) (chainLink, bool) {
	d := derived(t, t.header, t.rows)
	for _, l := range before {
		d = l.apply(d)
	}
	ci, mi := indexOf(d.header, cat), indexOf(d.header, m)
	if ci < 0 || mi < 0 {
		return chainLink{}, false
	}
	gs := d.groupBy(ci, mi)
	top, _, unique := argmax(gs, f)
	if len(gs) < 3 || !unique {
		return chainLink{}, false
	}
	return chainLink{
		en:      fmt.Sprintf("leave out the rows where %s is %s", colRef(cat), top.key),
		zh:      fmt.Sprintf("去掉 %s 为“%s”的行", cat, top.key),
		thought: fmt.Sprintf("Leave out %s %s.", cat, top.key),
		code:    fmt.Sprintf("df = df[df[%s].astype(str) != %s]\nprint(len(df))", py(cat), py(top.key)),
		apply: func(d *table) *table {
			var rows [][]string
			for _, r := range d.rows {
				if r[ci] != top.key {
					rows = append(rows, r)
				}
			}
			return derived(d, d.header, rows)
		},
	}, true
}

// joinLink inner-joins df with right (table b, unique on key) on key; b's
// columns other than the key follow a's.
func joinLink(c *bctx, key string, b *table, kb column) chainLink {
	return chainLink{
		en:      fmt.Sprintf("join the rows with %s on %s (an inner join: only rows whose %s is in both)", c.name(1), colRef(key), key),
		zh:      fmt.Sprintf("按 %s 与 %s 做内连接（只保留两边都有该 %s 的行）", key, c.name(1), key),
		thought: fmt.Sprintf("Inner-join with %s on %s.", c.name(1), key),
		code:    fmt.Sprintf("df = df.merge(right, on=%s, how='inner')\nprint(df.shape)", py(key)),
		apply: func(d *table) *table {
			ka := -1
			for i, h := range d.header {
				if h == key {
					ka = i
				}
			}
			byKey := map[string][]string{}
			for _, r := range b.rows {
				byKey[r[kb.idx]] = r
			}
			header := append([]string(nil), d.header...)
			for i, h := range b.header {
				if i != kb.idx {
					header = append(header, h)
				}
			}
			var rows [][]string
			for _, r := range d.rows {
				br, ok := byKey[r[ka]]
				if !ok || r[ka] == "" {
					continue
				}
				row := append([]string(nil), r...)
				for i, v := range br {
					if i != kb.idx {
						row = append(row, v)
					}
				}
				rows = append(rows, row)
			}
			return derived(d, header, rows)
		},
	}
}

// chain is a composed task's plan: its links in order, then the group
// key and measure the aggregate reads (names, in the table the links
// leave) and how it aggregates.
type chain struct {
	links    []chainLink
	cat, m   string
	agg      string // sum or mean
	aggEn    string
	aggZh    string
	share    bool   // a last link takes each group's share of the total, in percent
	loadCode string // the reference's first step: the inputs into df (and right)
	params   string
}

// chainSpec turns a chain into a task: it runs the links over Go's rows,
// aggregates, and writes the query, the reference and the checks. ok is
// false when a link leaves nothing, the top group is tied, or the chain
// is shorter than depth.
func chainSpec(c *bctx, t *table, ch chain, depth int) (spec, bool) {
	n := len(ch.links) + 1 // the aggregate
	if ch.share {
		n++
	}
	if n < depth {
		return spec{}, false
	}
	d := derived(t, t.header, t.rows)
	for _, l := range ch.links {
		before := len(d.rows)
		d = l.apply(d)
		if len(d.rows) == 0 || (before == len(d.rows) && strings.HasPrefix(l.code, "df = df[")) {
			return spec{}, false // a filter that keeps all or nothing
		}
	}
	ci, mi := indexOf(d.header, ch.cat), indexOf(d.header, ch.m)
	if ci < 0 || mi < 0 || indexOf(d.header[ci+1:], ch.cat) >= 0 || indexOf(d.header[mi+1:], ch.m) >= 0 {
		return spec{}, false // a name the join would suffix
	}
	f := sum
	if ch.agg == "mean" {
		f = mean
	}
	gs := d.groupBy(ci, mi)
	if len(gs) < 2 {
		return spec{}, false
	}
	best, bv, unique := argmax(gs, f)
	if !unique {
		return spec{}, false
	}
	// Each link must move the result as Go derives it, or the solution
	// that skips it would pass; the skip-step proof in the sandbox has
	// the last word (ProveSkips).
	want := finals(d, ch, f)
	for i := range ch.links {
		if sameFinals(finals(without(t, ch.links, i), ch, f), want) {
			return spec{}, false
		}
	}
	val, col := bv, ch.m
	aggCode := fmt.Sprintf("df = df.groupby(%s, as_index=False)[%s].%s()\nprint(df)", py(ch.cat), py(ch.m), ch.agg)
	links := append([]chainLink(nil), ch.links...)
	links = append(links, chainLink{
		en: fmt.Sprintf("compute the %s of %s for each %s", ch.aggEn, colRef(ch.m), colRef(ch.cat)), zh: fmt.Sprintf("按 %s 分组计算 %s 的%s", ch.cat, ch.m, ch.aggZh),
		thought: "Aggregate per group.", code: aggCode,
	})
	if ch.share {
		total := 0.0
		for _, g := range gs {
			total += f(g.vals)
		}
		if total <= 0 || bv <= 0 {
			return spec{}, false
		}
		val, col = bv/total*100, "share"
		links = append(links, chainLink{
			en:      fmt.Sprintf("add a column 'share': each group's %s as a percentage of the total over all groups", ch.m),
			zh:      fmt.Sprintf("新增一列 share：每组 %s 占所有组合计的百分比", ch.m),
			thought: "Each group's share of the total, in percent.",
			code:    fmt.Sprintf("df['share'] = df[%[1]s] / df[%[1]s].sum() * 100\nprint(df)", py(ch.m)),
		})
	}
	report := fmt.Sprintf("df = df.sort_values(%s, ascending=False)\n", py(col)) + saveCSV +
		fmt.Sprintf("\ntop = df.iloc[0]\nprint('top:', top[%s], round(float(top[%s]), 4))", py(ch.cat), py(col))
	steps := []schemas.RefStep{step("Load the data.", ch.loadCode)}
	var ens, zhs []string
	for _, l := range links {
		steps = append(steps, step(l.thought, l.code))
		ens = append(ens, l.en)
		zhs = append(zhs, l.zh)
	}
	steps = append(steps, step("Sort, save the per-group table and report the top group.", report))
	what, whatZh := ch.aggEn+" "+ch.m, ch.m+" 的"+ch.aggZh
	if ch.share {
		what, whatZh = "share (in percent)", "占比（百分比）"
	}
	sortBy := "the " + ch.aggEn
	if ch.share {
		sortBy = colRef(col)
	}
	en := fmt.Sprintf("Working on %s, do these steps in order: %s. Save the result to {OUT}.csv, one row per %s, sorted by %s from highest to lowest, and tell me which %s comes out on top and its %s.",
		c.name(0), joinSteps(ens), ch.cat, sortBy, ch.cat, what)
	zh := fmt.Sprintf("请基于 %s 依次完成以下步骤：%s。把每个 %s 一行的结果表（按 %s 从大到小排序）保存到 {OUT}.csv，并告诉我哪个 %s 排在最前面、它的%s是多少。",
		c.name(0), strings.Join(zhs, "；"), ch.cat, col, ch.cat, whatZh)
	article := "a"
	if strings.ContainsRune("aeiou", rune(what[0])) {
		article = "an" // an average
	}
	answer := fmt.Sprintf("The table (one row per %s) is saved to {OUT}.csv; %s comes out on top with %s %s of %s.", ch.cat, best.key, article, what, num(val))
	answerZh := fmt.Sprintf("结果表已保存到 {OUT}.csv，排在最前面的 %s 是 %s，其%s为 %s。", ch.cat, best.key, whatZh, num(val))
	cols := []string{ch.cat, ch.m}
	if ch.share {
		cols = append(cols, "share")
	}
	var code strings.Builder
	code.WriteString(ch.loadCode + "\n")
	for _, l := range links {
		code.WriteString(l.code + "\n")
	}
	code.WriteString("same_table('{out}.csv', df)")
	return spec{
		params: ch.params,
		en:     []string{en},
		zh:     []string{zh},
		steps:  steps,
		answer: answer, answerZh: answerZh,
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(gs)), ColumnsInclude: cols},
			// The whole chain, recomputed from the real input in the
			// verification sandbox: every step's effect is in the table.
			{Kind: schemas.CheckPython, Code: code.String()},
			answerOne(best.key, groupKeys(gs), answer, answerZh),
			firstCheck(val),
			recomputed(strings.TrimSuffix(code.String(), "same_table('{out}.csv', df)")+fmt.Sprintf("df = df.sort_values(%s, ascending=False)", py(col)),
				firstRecomputed(val, fmt.Sprintf("df.iloc[0][%s]", py(col)))),
		},
		outputs: []string{"{out}.csv"},
		chain:   len(links),
	}, true
}

// without is t after every link but the i-th; nil when a link leaves
// nothing.
func without(t *table, links []chainLink, i int) *table {
	d := derived(t, t.header, t.rows)
	for k, l := range links {
		if k != i {
			d = l.apply(d)
		}
	}
	return d
}

// finals is the chain's result on d as Go derives it: each group's
// aggregate, or its share of the total; nil when d lacks the columns.
func finals(d *table, ch chain, f func([]float64) float64) map[string]float64 {
	ci, mi := indexOf(d.header, ch.cat), indexOf(d.header, ch.m)
	if ci < 0 || mi < 0 {
		return nil
	}
	out := map[string]float64{}
	total := 0.0
	for _, g := range d.groupBy(ci, mi) {
		out[g.key] = f(g.vals)
		total += out[g.key]
	}
	if ch.share {
		for k, v := range out {
			out[k] = v / total * 100
		}
	}
	return out
}

// sameFinals reports whether two results hold the same groups with
// values the checks cannot tell apart: within same_table's tolerance
// (0.1%, or 0.005).
func sameFinals(a, b map[string]float64) bool {
	if a == nil || b == nil || len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || math.Abs(v-w) > math.Max(0.005, 1e-3*math.Abs(w)) {
			return false
		}
	}
	return true
}

// colRef is a column's name as a request quotes it ('unit price'),
// so that a name of several words, or a json table's "properties.pm25",
// reads as one column and not as words of the sentence.
func colRef(name string) string {
	if strings.Contains(name, "'") {
		return `"` + name + `"`
	}
	return "'" + name + "'"
}

// joinSteps joins clauses with "first", "then", as the query says them.
func joinSteps(xs []string) string {
	var b strings.Builder
	for i, x := range xs {
		switch {
		case i == 0:
			b.WriteString("(1) " + x)
		default:
			fmt.Fprintf(&b, "; (%d) %s", i+1, x)
		}
	}
	return b.String()
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// buildChain writes composed tasks over one table: clean (where there is
// something to clean), filter, aggregate per group and, for amounts, each
// group's share; up to c.chains of them, on different columns.
func buildChain(c *bctx) ([]spec, error) {
	t := c.table(0)
	cats, ms := t.categories(), t.measures()
	if len(cats) == 0 || len(ms) == 0 {
		return nil, nil
	}
	var out []spec
	seen := map[string]bool{}
	for try := 0; try < 24 && len(out) < c.chains; try++ {
		cat, _ := c.pickCol(cats)
		m, _ := c.pickCol(ms)
		fcol, _ := c.pickCol(ms)
		// Every other try leaves out a group, which a chain too short
		// for the depth always does.
		exclude := try%2 == 1
		agg, en, zh, f := aggOf(m)
		ch := chain{cat: cat.name, m: m.name, agg: agg, aggEn: en, aggZh: zh, share: agg == "sum",
			loadCode: "import pandas as pd\n" + c.loadCode(0, "df") + "\nprint(df.shape)"}
		if cl, ok := cleanLink(c, t, m); ok {
			ch.links = append(ch.links, cl)
		}
		fl, ok := filterLink(t, fcol)
		if !ok {
			continue
		}
		ch.links = append(ch.links, fl)
		if short := len(ch.links)+1+boolInt(ch.share) < c.depth; short || exclude {
			xl, ok := excludeLink(t, ch.links, cat.name, m.name, f)
			if !ok {
				continue
			}
			ch.links, exclude = append(ch.links, xl), true
		}
		ch.params = fmt.Sprintf("chain:%s:%s:%s:%s:%v", cat.name, m.name, fcol.name, agg, exclude)
		if seen[ch.params] {
			continue
		}
		seen[ch.params] = true
		if s, ok := chainSpec(c, t, ch, c.depth); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// buildChainJoin writes a composed task over two tables that a key
// really links (joinable, as table.join's): filter the first, join the
// second, aggregate the first's measure per a category of the second
// and, for amounts, each group's share.
func buildChainJoin(c *bctx) ([]spec, error) {
	a, b := c.table(0), c.table(1)
	for _, ka := range a.columns() {
		if ka.kind != kindID {
			continue
		}
		kb, ok := keyColumn(b, ka.name)
		if !ok || !joinable(a, b, ka, kb) {
			continue
		}
		var cats []column
		for _, cc := range b.categories() {
			if indexOf(a.header, cc.name) < 0 {
				cats = append(cats, cc)
			}
		}
		var ms []column
		for _, m := range a.measures() {
			if indexOf(b.header, m.name) < 0 {
				ms = append(ms, m)
			}
		}
		cat, ok1 := c.pickCol(cats)
		m, ok2 := c.pickCol(ms)
		fcol, ok3 := c.pickCol(ms)
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		agg, en, zh, _ := aggOf(m)
		ch := chain{cat: cat.name, m: m.name, agg: agg, aggEn: en, aggZh: zh, share: agg == "sum",
			loadCode: "import pandas as pd\n" + c.loadCode(0, "df") + "\n" + c.loadCode(1, "right") + "\nprint(df.shape, right.shape)",
			params:   fmt.Sprintf("chainjoin:%s:%s:%s:%s:%s", ka.name, cat.name, m.name, fcol.name, agg)}
		if cl, ok := cleanLink(c, a, m); ok {
			ch.links = append(ch.links, cl)
		}
		fl, ok := filterLink(a, fcol)
		if !ok {
			continue
		}
		ch.links = append(ch.links, fl, joinLink(c, ka.name, b, kb))
		if s, ok := chainSpec(c, a, ch, c.depth); ok {
			return []spec{s}, nil
		}
	}
	return nil, nil
}

// keyColumn is b's column named name when it keys b: unique, never empty.
func keyColumn(b *table, name string) (column, bool) {
	for _, cb := range b.columns() {
		if cb.name == name && cb.distinct == len(b.rows) && cb.nulls == 0 {
			return cb, true
		}
	}
	return column{}, false
}
