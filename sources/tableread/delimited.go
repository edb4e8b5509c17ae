package tableread

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// sniffLen is how much of the text chooses the separator.
const sniffLen = 1 << 20

// seps are the separators a delimited table may use, in the order a tie
// between them is broken.
var seps = []rune{',', '\t', ';', '|'}

// ReadDelimited reads delimited text (a whole file) as the table its owner
// meant: its encoding sniffed over every byte, then its layout.
func ReadDelimited(b []byte) (*Table, error) {
	enc, ok := SniffEncoding(b)
	if !ok {
		return nil, errors.New("not text: control characters or invalid bytes")
	}
	text, err := decodeAll(b, enc)
	if err != nil {
		return nil, fmt.Errorf("decode as %s: %w", enc, err)
	}
	t, err := delimited(text, false)
	if err != nil {
		return nil, err // an ambiguous layout's first reading is for typing only
	}
	t.Layout.Encoding = enc
	return t, nil
}

// SniffDelimited reads the head of a file (it may stop mid-line) as
// delimited text; ok is false when it holds no table. Typing and previews
// use it; the table's rows are those of the head. A table whose layout is
// ambiguous (a header of two rows, a second table below) is still a table:
// its first reading types it, and ReadDelimited names why no task reads it.
func SniffDelimited(head []byte) (t *Table, ok bool) {
	enc, ok := SniffEncoding(head)
	if !ok {
		return nil, false
	}
	t, err := delimited(DecodeHead(head, enc), true)
	if err != nil && (t == nil || !errors.As(err, new(*Ambiguous))) {
		return nil, false
	}
	t.Layout.Encoding = enc
	return t, looksTabular(t)
}

// looksTabular holds a head's table to what text that is not a table
// rarely shows: short cells (prose split at its commas has long ones), not a Markdown table (its lines start with |), and the
// header and rows at least half the lines that are not comments.
func looksTabular(t *Table) bool {
	if len(t.Rows) < 1 || t.lines.records < 2 {
		return false
	}
	if t.lines.table*2 < t.lines.records {
		return false
	}
	if t.Layout.Sep == "|" && (strings.HasPrefix(strings.TrimSpace(t.lines.headerLine), "|") || mdRule.MatchString(t.lines.belowHeader)) {
		return false
	}
	if t.Layout.Sep != "\t" && wordy(t) {
		return false
	}
	return true
}

// wordy reports prose split at its commas: half the cells or more of three
// words or more, or a header of long phrases.
func wordy(t *Table) bool {
	long, all := 0, 0
	for _, r := range append([][]string{t.Header}, t.Rows...) {
		for _, f := range r {
			all++
			if len(strings.Fields(f)) >= 3 {
				long++
			}
		}
	}
	longNames := 0
	for _, f := range t.Header {
		if len(strings.Fields(f)) > 6 {
			longNames++
		}
	}
	return long*2 >= all || longNames*2 > len(t.Header)
}

func decodeAll(b []byte, enc string) (string, error) {
	if enc == EncUTF8 {
		return string(b), nil
	}
	s, err := Decoder(enc).Bytes(b)
	return string(s), err
}

// record is one parsed record and the line (0-based) it starts on.
type record struct {
	fields []string
	line   int
}

// nonEmpty counts the fields with something besides spaces.
func (r record) nonEmpty() int {
	n := 0
	for _, f := range r.fields {
		if strings.TrimSpace(f) != "" {
			n++
		}
	}
	return n
}

// parse reads text as records separated by sep, lines starting with #
// left out; ok is false when it does not parse.
func parse(text string, sep rune) (recs []record, ok bool) {
	r := csv.NewReader(strings.NewReader(text))
	r.Comma, r.Comment = sep, '#'
	r.FieldsPerRecord, r.LazyQuotes = -1, true
	for {
		f, err := r.Read()
		if err == io.EOF {
			return recs, true
		}
		if err != nil {
			return nil, false
		}
		line, _ := r.FieldPos(0)
		recs = append(recs, record{fields: f, line: line - 1})
	}
}

// modal is the field count most records share (more than one field), and
// how many share it.
func modal(recs []record) (width, share int) {
	n := map[int]int{}
	for _, r := range recs {
		if len(r.fields) > 1 {
			n[len(r.fields)]++
		}
	}
	for w, k := range n {
		if k > share || k == share && w > width {
			width, share = w, k
		}
	}
	return width, share
}

// delimited finds the table in decoded text; cut says the text may stop
// mid-line (a head), whose last line is then left out.
func delimited(text string, cut bool) (*Table, error) {
	text = crLines(text)
	if cut {
		if i := strings.LastIndexByte(text, '\n'); i >= 0 {
			text = text[:i+1]
		}
	}
	text = strings.TrimPrefix(text, "\ufeff")
	// The separator is chosen on the first lines (sniffLen bytes), the
	// table then parsed whole with it alone.
	head := text
	if len(head) > sniffLen {
		head = head[:strings.LastIndexByte(head[:sniffLen], '\n')+1]
	}
	var sep rune
	share := 0
	for _, s := range seps {
		rs, ok := parse(head, s)
		if !ok {
			continue
		}
		if _, k := modal(rs); k > share {
			sep, share = s, k
		}
	}
	if share < 2 {
		if recs, width, ok := spaced(text); ok {
			return shape(text, recs, ' ', width)
		}
		return nil, fmt.Errorf("%w: no two lines split into the same number of fields by , ; tab or |", ErrNoTable)
	}
	recs, ok := parse(text, sep)
	if !ok {
		return nil, fmt.Errorf("%w: the text does not parse with the separator %q", ErrNoTable, sep)
	}
	width, _ := modal(recs)
	return shape(text, recs, sep, width)
}

// shape finds the header, the rows and what lies around them among recs,
// which split by sep mostly into width fields. For a layout that is
// ambiguous yet a table (a header of two rows, a second table below), it
// returns the first reading with the *Ambiguous error.
func shape(text string, recs []record, sep rune, width int) (*Table, error) {
	lines := strings.Split(text, "\n")
	l := Layout{Format: "delimited", Sep: string(sep)}
	if sep == ' ' {
		l.Sep = `\s+`
	}
	h := -1
	for i, r := range recs {
		if i == 0 && len(r.fields) == width-1 && width >= 3 && len(recs) > 1 && len(recs[1].fields) == width && r.nonEmpty() == width-1 {
			h, l.IndexCol = 0, true // R's write.table: no name over the row names
			break
		}
		if len(r.fields) == width && r.nonEmpty() >= 2 {
			h = i
			break
		}
	}
	if h < 0 {
		return nil, fmt.Errorf("%w: no header row", ErrNoTable)
	}
	if w := wideRecord(recs, h, width); w > h && !l.IndexCol {
		h = w // the records above are notes, not the header
	}
	header := recs[h].fields
	l.SkipRows = recs[h].line
	soft := twoRowHeader(recs, h, width)
	if hl, ok := commentHeader(lines, recs[h], sep, width); h == 0 && ok {
		// A header written as a comment (#CHROM …): the first record is data.
		header, l.SkipRows, h = hl, recs[0].line-1, -1
	}
	body, after, second, err := bodyOf(lines, recs, h, width, l.IndexCol)
	if err != nil {
		return nil, err
	}
	if soft == nil {
		soft = second
	}
	if soft == nil && h >= 0 {
		soft = headerRows(recs[h], body)
	}
	if after > 0 {
		l.NRows = len(body)
	}
	if err := commentsAmong(lines, l.SkipRows, &l); err != nil {
		return nil, err
	}
	t := &Table{Layout: l}
	t.lines.records = len(recs)
	t.lines.table = len(body) + 1
	if second != nil { // tables one below another: all their lines are table
		t.lines.table = 0
		for _, r := range recs {
			if len(r.fields) == width && r.nonEmpty() >= 2 {
				t.lines.table++
			}
		}
	}
	t.lines.headerLine = lines[l.SkipRows]
	if l.SkipRows+1 < len(lines) {
		t.lines.belowHeader = lines[l.SkipRows+1]
	}
	if n := namedWidth(header, body, l.IndexCol); n < len(header) {
		t.Layout.NCols, header = n, header[:n]
	}
	for _, r := range body {
		f := r.fields
		if l.IndexCol {
			f = f[1:]
		}
		row := make([]string, len(header))
		copy(row, f)
		t.Rows = append(t.Rows, row)
	}
	t.Header = Names(header)
	if sep != ',' && len(t.Rows) > 0 && thousandsDots(t.Rows) {
		t.Layout.Thousands = "."
		for _, row := range t.Rows {
			for i, v := range row {
				if v = strings.TrimSpace(v); grouped.MatchString(v) {
					whole, frac, _ := strings.Cut(v, ",")
					row[i] = strings.ReplaceAll(whole, ".", "")
					if frac != "" {
						row[i] += "." + frac
						t.Layout.Decimal = ","
					}
				}
			}
		}
	}
	if sep != ',' && t.Layout.Thousands == "" && decimalCommas(t.Rows) {
		t.Layout.Decimal = ","
		for _, row := range t.Rows {
			for i, v := range row {
				if decComma.MatchString(strings.TrimSpace(v)) {
					row[i] = strings.Replace(strings.TrimSpace(v), ",", ".", 1)
				}
			}
		}
	}
	if len(t.Rows) > 0 {
		markNA(t.Rows, &t.Layout)
		if sep != ' ' {
			markBlank(t.Rows, &t.Layout)
		}
	}
	dropTotal(t)
	markBools(t)
	if soft != nil {
		return t, soft
	}
	return t, nil
}

// commentHeader is the header of a file whose header line is a comment
// (#CHROM POS … above the data, as VCF writes it): the comment line right
// above the first record, splitting into width named fields.
func commentHeader(lines []string, first record, sep rune, width int) ([]string, bool) {
	if first.line == 0 || first.nonEmpty() < width || !allNumberish(first.fields) {
		return nil, false
	}
	above := strings.TrimRight(lines[first.line-1], "\r")
	if !strings.HasPrefix(above, "#") || strings.HasPrefix(above, "##") {
		return nil, false
	}
	f := strings.Split(above, string(sep))
	if len(f) != width {
		return nil, false
	}
	for _, x := range f {
		if strings.TrimSpace(strings.TrimPrefix(x, "#")) == "" {
			return nil, false
		}
	}
	return f, true
}

// allNumberish reports whether some field is a number: a data row, not a header.
func allNumberish(f []string) bool {
	for _, x := range f {
		if number.MatchString(strings.TrimSpace(x)) {
			return true
		}
	}
	return false
}

// bodyOf is the data rows below header recs[h] (h is -1 when the header is
// a comment line above recs[0]): they run while rows have no more fields
// than the table, up to the last row of its width; notes below (one cell
// of text) and a second table after a blank line are left out. after
// counts the records below the body; second, when a second table lies
// below, says so (the body is then the first table's).
func bodyOf(lines []string, recs []record, h, width int, indexCol bool) (body []record, after int, second, err error) {
	hw := width
	if indexCol {
		hw = width - 1
	}
	end := h + 1
	gap := false // a record of empty fields (",,") since the last row: a blank line
	for j := h + 1; j < len(recs); j++ {
		r := recs[j]
		if len(r.fields) > width {
			return nil, 0, nil, &Ambiguous{fmt.Sprintf("line %d has %d fields, the table's rows %d", r.line+1, len(r.fields), width)}
		}
		if r.nonEmpty() == 0 {
			gap = true
			continue
		}
		if end > h+1 && (gap || blankBetween(lines, recs[j-1], r)) && startsAnother(r, recs[h+1:end], hw) {
			if k := secondTable(recs[j:], width); k >= 0 {
				second = &Ambiguous{fmt.Sprintf("a second table begins on line %d below the first: which one a task means is a guess", recs[j+k].line+1)}
			}
			break
		}
		gap = false
		end = j + 1
	}
	body = recs[h+1 : end]
	for len(body) > 0 && isNote(body[len(body)-1], width) {
		body = body[:len(body)-1]
	}
	if len(body) == 0 {
		return nil, 0, nil, fmt.Errorf("%w: a header without rows", ErrNoTable)
	}
	return body, len(recs) - (h + 1 + len(body)), second, nil
}

// secondTable is the index in recs (what follows a table and a blank
// line) of the header of a second table: a record of the table's width with
// two values or more and a row of two values or more below it; -1 when
// there is none (notes only).
func secondTable(recs []record, width int) int {
	for i := 0; i+1 < len(recs); i++ {
		if len(recs[i].fields) == width && recs[i].nonEmpty() >= 2 && recs[i+1].nonEmpty() >= 2 {
			return i
		}
	}
	return -1
}

// twoRowHeader refuses a header of two rows: a row that leaves some
// columns unnamed (questions or groups over several columns) above a row
// of text naming every column with names repeated (a survey export's
// "Response", "Open-Ended Response" …). Which row names the columns is a
// guess.
func twoRowHeader(recs []record, h, width int) error {
	if h+1 >= len(recs) || recs[h].nonEmpty() == width {
		return nil
	}
	next := recs[h+1]
	if len(next.fields) != width || next.nonEmpty() != width || allNumberish(next.fields) {
		return nil
	}
	seen := map[string]bool{}
	for _, f := range next.fields {
		f = strings.TrimSpace(f)
		if seen[f] {
			return &Ambiguous{fmt.Sprintf("a header of two rows (lines %d and %d): which one names the columns is a guess", recs[h].line+1, next.line+1)}
		}
		seen[f] = true
	}
	return nil
}

// namedWidth is how many columns the table has when its lines end in
// separators with nothing between them: the trailing columns with no name
// and no value in any row are left out (their count is the width). With
// row names (index_col) every column is kept.
func namedWidth(header []string, body []record, indexCol bool) int {
	if indexCol {
		return len(header)
	}
	n := len(header)
	for n > 1 && strings.TrimSpace(header[n-1]) == "" && emptyColumn(body, n-1) {
		n--
	}
	return n
}

// emptyColumn reports whether no row holds a value in column c.
func emptyColumn(body []record, c int) bool {
	for _, r := range body {
		if c < len(r.fields) && strings.TrimSpace(r.fields[c]) != "" {
			return false
		}
	}
	return true
}

// spaced reads text whose columns are aligned with runs of spaces (a table
// saved as text, which pandas reads with sep="\s+"): every line that is
// not blank splits at whitespace into one number of fields, two or more,
// on three lines or more, and no line holds a quote or starts with #.
func spaced(text string) (recs []record, width int, ok bool) {
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
			continue
		case strings.ContainsAny(line, "\"'") || strings.HasPrefix(f[0], "#"):
			return nil, 0, false
		case width == 0:
			width = len(f)
		case len(f) != width:
			return nil, 0, false
		}
		recs = append(recs, record{fields: f, line: i})
	}
	return recs, width, width >= 2 && len(recs) >= 3
}

// crLines makes each lone carriage return (the line end of old Mac files,
// which pandas reads as a line end) a newline, one byte for one, so that
// lines count as pandas counts them.
func crLines(text string) string {
	if !strings.Contains(text, "\r") {
		return text
	}
	b := []byte(text)
	for i, c := range b {
		if c == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			b[i] = '\n'
		}
	}
	return string(b)
}

// blankBetween reports a blank line between records a and b.
func blankBetween(lines []string, a, b record) bool {
	for i := a.line + 1; i < b.line && i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			return true
		}
	}
	return false
}

// startsAnother reports whether r, after a blank line, begins something
// other than more rows of the table above: a note, or a header (no number
// where the rows above have numbers).
func startsAnother(r record, above []record, hw int) bool {
	if r.nonEmpty() <= 1 || len(r.fields) < hw {
		return true
	}
	return !allNumberish(r.fields) && allNumberish(above[len(above)-1].fields)
}

// isNote reports a row below a table that is a note, not data: a single
// cell of text, or nothing at all.
func isNote(r record, width int) bool {
	if r.nonEmpty() == 0 {
		return true
	}
	return width >= 3 && r.nonEmpty() == 1 && !allNumberish(r.fields)
}

// commentsAmong sets l.Comment when lines starting with # lie below the
// header line (pandas must skip them), and refuses the file when # also
// occurs in its other lines, where comment='#' would cut cells short.
func commentsAmong(lines []string, header int, l *Layout) error {
	comments, other := 0, -1
	for i := header + 1; i < len(lines); i++ {
		switch {
		case strings.HasPrefix(lines[i], "#"):
			comments++
		case other < 0 && strings.Contains(lines[i], "#"):
			other = i
		}
	}
	if comments == 0 {
		return nil
	}
	if other >= 0 || strings.Contains(lines[header], "#") {
		return &Ambiguous{fmt.Sprintf("lines starting with # lie among the rows, and # also occurs in a cell (line %d)", max(other, header)+1)}
	}
	l.Comment = "#"
	return nil
}

var (
	// mdRule is the rule below a Markdown table's header (---|:---:).
	mdRule   = regexp.MustCompile(`^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$`)
	number   = regexp.MustCompile(`^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$`)
	decComma = regexp.MustCompile(`^[-+]?\d*,\d+$`)
	decPoint = regexp.MustCompile(`^[-+]?\d*\.\d+$`)
)

// decimalCommas reports numbers written with a decimal comma and none with
// a decimal point.
func decimalCommas(rows [][]string) bool {
	commas := 0
	for _, r := range rows {
		for _, v := range r {
			v = strings.TrimSpace(v)
			switch {
			case decPoint.MatchString(v):
				return false
			case decComma.MatchString(v):
				commas++
			}
		}
	}
	return commas > 0
}
