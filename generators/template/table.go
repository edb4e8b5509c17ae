package template

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"synth/generators"
	"synth/sources/tableread"
)

// bctx is what a builder sees: its files, parsed on demand, and a random
// stream fixed by the seed, the template and the files.
type bctx struct {
	seed  int64
	files []generators.Input
	rng   *rand.Rand
	cache *parsed
	// noTotals makes table and loadStep leave out aggregate rows
	// ("Total", "All"); see withoutTotals.
	noTotals bool
	// depth is the fewest dependent steps a composed task may have, and
	// chains how many composed tasks a one-file composer writes for the
	// file (Options.Composed).
	depth, chains int
}

func newCtx(seed int64, files []generators.Input, cache *parsed) *bctx {
	if cache == nil {
		cache = newParsed()
	}
	return &bctx{seed: seed, files: files, cache: cache}
}

// name is file i's name under data/; dpath its path as code and queries use it.
func (c *bctx) name(i int) string  { return c.files[i].File.Name }
func (c *bctx) dpath(i int) string { return "./data/" + c.files[i].File.Name }
func (c *bctx) typ(i int) string   { return c.files[i].File.Type }

// table is file i as a table. Under withoutTotals its aggregate rows are
// left out.
func (c *bctx) table(i int) *table {
	t := c.rawTable(i)
	if c.noTotals {
		return t.withoutAggregates()
	}
	return t
}

// rawTable is file i as a table, every row kept.
func (c *bctx) rawTable(i int) *table { return must(c, i, tableFile) }

// tableReader reads a table file; a test replaces it to make a reader
// panic, as a parser's bug on hostile bytes would.
var tableReader = readTable

// readTableFile parses a file as a table.
func readTableFile(in generators.Input) (*table, error) {
	t, err := tableReader(in.Path, in.File.Type)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", in.File.Name, err)
	}
	return t, nil
}

// text is file i as UTF-8 text.
func (c *bctx) text(i int) string { return must(c, i, textFile) }

// readText reads a file as text, decoded from the encoding
// tableread.SniffEncoding names for all its bytes (readTextEncoding), as
// the reference code opens it.
func readText(in generators.Input) (string, error) {
	b, err := os.ReadFile(in.Path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", in.File.Name, err)
	}
	enc, _ := tableread.SniffEncoding(b)
	if enc == "" || enc == tableread.EncUTF8 {
		return string(b), nil
	}
	s, err := tableread.Decoder(enc).Bytes(b)
	if err != nil {
		return "", fmt.Errorf("read %s as %s: %w", in.File.Name, enc, err)
	}
	return string(s), nil
}

// textEncoding is the Python codec that decodes text file i, stated in
// the reference code's open(..., encoding=...).
func (c *bctx) textEncoding(i int) string { return must(c, i, textEncFile) }

// readTextEncoding names a text file's encoding as Python's codecs do
// (utf-8 for text whose encoding cannot be told).
func readTextEncoding(in generators.Input) (string, error) {
	b, err := os.ReadFile(in.Path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", in.File.Name, err)
	}
	if enc, _ := tableread.SniffEncoding(b); enc != "" {
		return enc, nil
	}
	return tableread.EncUTF8, nil
}

// loadCode is the pandas line that reads table i into v; under
// withoutTotals, followed by the lines that drop its aggregate rows.
func (c *bctx) loadCode(i int, v string) string {
	code := c.readCode(i, v)
	if c.noTotals {
		if drop, _, _ := c.rawTable(i).aggregateFilter(v); drop != "" {
			code += "\n" + strings.TrimSuffix(drop, "\n")
		}
	}
	return code
}

// readCode is the pandas line that reads table i into v, every fact of
// its layout stated (encoding, separator, rows above and below, sheet).
func (c *bctx) readCode(i int, v string) string {
	code := v + " = " + c.readExpr(i, c.dpath(i))
	if l := c.rawTable(i).layout; l != nil && l.NeedsJSON() {
		code = "import json\n" + code
	}
	return code
}

// readExpr is the pandas expression that reads table i from path.
func (c *bctx) readExpr(i int, path string) string {
	p := py(path)
	switch c.typ(i) {
	case "csv", "tsv", "xlsx", "xls", "json", "jsonl":
		return c.rawTable(i).layout.Call(path)
	case "parquet":
		return fmt.Sprintf("pd.read_parquet(%s)", p)
	}
	return fmt.Sprintf("pd.read_csv(%s)", p)
}

// py quotes s as a Python string literal.
func py(s string) string { return strconv.Quote(s) }

// table is a parsed table: a header and rows of raw cells, "" for null.
type table struct {
	header []string
	rows   [][]string
	cols   []column // columns(), computed once
	// delimited is true for csv and tsv, whose first line may be data,
	// and xls, whose header cells keep their types (a number or a date
	// there is data too).
	delimited bool
	// layout is how pandas reads a csv, tsv, xlsx, xls or json table as its
	// owner meant (nil for parquet).
	layout *tableread.Layout
	// objects marks a json table's columns holding lists, objects or
	// booleans (tableread.Table.Objects): no template picks them.
	objects []bool
	// bools marks a delimited or sheet table's columns of booleans
	// (tableread.Table.Bools): no template picks them either.
	bools []bool
	// strings marks a json table's columns holding strings
	// (tableread.Table.Strings): text to pandas, never numbers.
	strings  []bool
	noHeader int              // headerless(), computed once: 1 yes, -1 no
	aggRows  map[int][]string // aggregateRows(), computed once
	nobody   *table           // withoutAggregates(), computed once
}

// naValues are the cells pandas reads as missing by default.
var naValues = map[string]bool{"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true,
	"-NaN": true, "-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true, "NA": true, "NULL": true,
	"NaN": true, "None": true, "n/a": true, "nan": true, "null": true}

// excelErrors are the values of a spreadsheet's error cells (a formula
// that divides by zero), which pandas reads from xlsx as missing. excelize
// gives them as text; a text cell holding the same characters is taken for
// one too.
var excelErrors = map[string]bool{"#DIV/0!": true, "#N/A": true, "#NAME?": true, "#NULL!": true, "#NUM!": true,
	"#REF!": true, "#VALUE!": true, "#GETTING_DATA": true}

// tableReaders reads the table types readTable reads from their bytes.
var tableReaders = map[string]func([]byte) (*tableread.Table, error){
	"csv": tableread.ReadDelimited, "tsv": tableread.ReadDelimited,
	"json": tableread.ReadJSON, "jsonl": tableread.ReadJSONLines,
}

// readTable reads a table file: csv, tsv (and tables typed so whatever
// their name), xlsx, xls and json through package tableread, which finds
// the table its owner meant and how pandas reads it; parquet here.
func readTable(path, typ string) (*table, error) {
	var tb *tableread.Table
	var err error
	switch typ {
	case "csv", "tsv", "json", "jsonl":
		var b []byte
		if b, err = os.ReadFile(path); err == nil {
			tb, err = tableReaders[typ](b)
		}
	case "xlsx":
		tb, err = tableread.ReadXLSX(path)
	case "xls":
		tb, err = tableread.ReadXLS(path)
	case "parquet":
		return readParquetTable(path)
	default:
		return nil, fmt.Errorf("type %s is not a table", typ)
	}
	if err != nil {
		return nil, err
	}
	t := &table{header: tb.Header, delimited: typ == "csv" || typ == "tsv" || typ == "xls", layout: &tb.Layout, objects: tb.Objects, bools: tb.Bools, strings: tb.Strings}
	for _, row := range tb.Rows {
		for i, v := range row {
			if typ != "json" && typ != "jsonl" && naValues[v] || (typ == "xlsx" || typ == "xls") && excelErrors[v] {
				row[i] = ""
			}
		}
		t.rows = append(t.rows, row)
	}
	return t, nil
}

// pandasNames names the columns as pandas does when it reads a header row.
func pandasNames(header []string) []string { return tableread.Names(header) }

// Column kinds.
const (
	kindNum  = "num"
	kindDate = "date"
	kindCat  = "cat"  // few distinct strings
	kindID   = "id"   // unique or id-named
	kindText = "text" // other strings
)

type column struct {
	name     string
	idx      int
	kind     string
	isInt    bool
	nulls    int
	distinct int
	isNum    bool   // every non-null cell is a number
	role     role   // what the column means; see profile
	unit     string // the unit its name states, "" when none
}

var idName = regexp.MustCompile(`(?i)(^id$|_id$|^id_|code$|number$|^no$)`)

// columns infers each column's kind from its cells.
func (t *table) columns() []column {
	if t.cols == nil {
		t.cols = t.inferColumns()
	}
	return t.cols
}

func (t *table) inferColumns() []column {
	var out []column
	for i, h := range t.header {
		c := column{name: h, idx: i, isInt: true}
		seen := map[string]bool{}
		num, date := !t.text(i), true
		for _, r := range t.rows {
			v := r[i]
			if v == "" {
				c.nulls++
				continue
			}
			seen[v] = true
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				num = false
			} else if f != float64(int64(f)) {
				c.isInt = false
			}
			if !isDate(v) {
				date = false
			}
		}
		c.distinct = len(seen)
		nonNull := len(t.rows) - c.nulls
		c.isNum = num && nonNull > 0
		switch {
		case nonNull == 0:
			c.kind = kindText
		case date:
			c.kind = kindDate
		case idName.MatchString(h) || (!num && c.distinct == nonNull && nonNull > 12):
			c.kind = kindID
		case num:
			c.kind = kindNum
		case c.distinct <= 12 && c.distinct >= 2 && c.distinct*3 <= nonNull:
			c.kind = kindCat
		default:
			c.kind = kindText
		}
		t.profile(&c)
		out = append(out, c)
	}
	t.references(out)
	return out
}

func isDate(s string) bool {
	for _, l := range []string{"2006-01-02", "2006/01/02", "2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
		if _, err := time.Parse(l, s); err == nil {
			return true
		}
	}
	return false
}

// floats returns the column's non-null values as numbers.
func (t *table) floats(idx int) []float64 {
	var out []float64
	for _, r := range t.rows {
		if r[idx] == "" {
			continue
		}
		if f, err := strconv.ParseFloat(r[idx], 64); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// object reports a json table's column of lists, objects or booleans, or
// another table's column of booleans.
func (t *table) object(idx int) bool {
	return idx < len(t.objects) && t.objects[idx] || idx < len(t.bools) && t.bools[idx]
}

// text reports a json table's column holding strings, which pandas keeps
// as text however numeric they look.
func (t *table) text(idx int) bool { return idx < len(t.strings) && t.strings[idx] }

// hasObjects reports a json table with a column of lists, objects or
// booleans (object).
func (t *table) hasObjects() bool { return slices.Contains(t.objects, true) }

// duplicates counts rows equal to an earlier row; none in a json table
// with a column of lists or objects (hasObjects), whose rows pandas cannot
// hash.
func (t *table) duplicates() int {
	if t.hasObjects() {
		return 0
	}
	seen := map[string]bool{}
	n := 0
	for _, r := range t.rows {
		k := strings.Join(r, "\x00")
		if seen[k] {
			n++
		}
		seen[k] = true
	}
	return n
}

// rowsWithNulls counts rows with at least one empty cell.
func (t *table) rowsWithNulls() int {
	n := 0
	for _, r := range t.rows {
		for _, v := range r {
			if v == "" {
				n++
				break
			}
		}
	}
	return n
}

// pickCol picks one of cols at random; ok is false when there is none.
func (c *bctx) pickCol(cols []column) (column, bool) {
	if len(cols) == 0 {
		return column{}, false
	}
	return cols[c.rng.IntN(len(cols))], true
}

// whereTables adds to each phrasing of s, a task of template t, where in
// each json file the table it reads lies, when the file holds it below its
// root ("In data/api.json, the table is the records under data.items."),
// and which last row of a table file totals the rows above and is left
// out ("In data/x.csv, the last row (Total) totals the rows above it and
// is not part of the table."): the reference's code states the path or
// the rows, and so does the query.
func (c *bctx) whereTables(t *tmpl, s spec) spec {
	if t.jsonTree {
		return s
	}
	var en, zh []string
	for i := range c.files {
		if !slices.Contains(tableTypes, c.typ(i)) {
			continue
		}
		tb, err := tableFile.of(c, i)
		if err != nil || tb.layout == nil {
			continue
		}
		l := tb.layout
		if l.LaterSheet {
			en = append(en, fmt.Sprintf("In %s, the table is on the sheet %q (the sheets before it hold none).", c.dpath(i), l.Sheet))
			zh = append(zh, fmt.Sprintf("%s 中的表格在工作表“%s”上（它之前的工作表没有表格）。", c.dpath(i), l.Sheet))
		}
		if l.Total != "" {
			what, whatZh := "totals", "合计"
			if l.TotalIsMean {
				what, whatZh = "averages", "平均值"
			}
			en = append(en, fmt.Sprintf("In %s, the last row (%s) %s the rows above it and is not part of the table.", c.dpath(i), l.Total, what))
			zh = append(zh, fmt.Sprintf("%s 的最后一行（%s）是上面各行的%s，不属于表格。", c.dpath(i), l.Total, whatZh))
		}
		if c.typ(i) != "json" {
			continue
		}
		if w := l.Where(); w != "" {
			en = append(en, fmt.Sprintf("In %s, the table is %s.", c.dpath(i), w))
			zh = append(zh, fmt.Sprintf("%s 中的表格是%s。", c.dpath(i), l.WhereZh()))
		}
		if l.Orient != tableread.OrientIndex {
			if k := slices.IndexFunc(tb.header, func(h string) bool { return strings.Contains(h, ".") }); k >= 0 {
				en = append(en, fmt.Sprintf("Its nested fields are columns of their own, named with dots (%s), as pandas' json_normalize names them.", tb.header[k]))
				zh = append(zh, fmt.Sprintf("嵌套字段各自成列，列名用点连接（如 %s），与 pandas 的 json_normalize 一致。", tb.header[k]))
			}
		}
	}
	if len(en) == 0 {
		return s
	}
	s.en = appendAll(s.en, " "+strings.Join(en, " "))
	s.zh = appendAll(s.zh, strings.Join(zh, ""))
	return s
}

// appendAll is each of phrasings with tail appended.
func appendAll(phrasings []string, tail string) []string {
	out := make([]string, len(phrasings))
	for i, p := range phrasings {
		out[i] = p + tail
	}
	return out
}
