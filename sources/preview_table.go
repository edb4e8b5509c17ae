package sources

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/transform"

	"synth/sources/tableread"

	"synth/schemas"
)

const (
	headRows     = 5    // rows shown in Preview.Head
	dtypeRows    = 1000 // rows read to infer dtypes
	maxCellChars = 40   // cell width in Preview.Head
)

// previewTable previews a csv or tsv file as package tableread finds its
// table in the head (encoding, separator, the lines above the header, row
// names, comments, decimal commas), counting its rows over the whole file
// within the preview budgets (rows, bytes, time).
func previewTable(path string) (*schemas.Preview, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(&countingReader{r: f, max: PreviewMaxBytes, what: "the table"}, HeadSize)
	head, _ := br.Peek(HeadSize)
	enc, ok := sniffEncoding(head)
	if !ok {
		return nil, errors.New("not text")
	}
	l := tableread.Layout{Format: "delimited", Encoding: enc, Sep: ","}
	if tb, ok := tableread.SniffDelimited(head); ok {
		l = tb.Layout
	}
	var r io.Reader = br
	if enc != EncUTF8 {
		r = transform.NewReader(br, decoder(enc))
	}
	cr := tableread.RecordReader(r, l)
	cr.ReuseRecord = true
	header, err := tableHeader(cr, l)
	if err != nil {
		return nil, err
	}
	if l.NCols > 0 && l.NCols < len(header) {
		header = header[:l.NCols]
	}
	p := &schemas.Preview{Encoding: enc, Delimiter: l.Sep, Read: strings.Join(l.Args(), ", ")}
	infer := make([]dtypeGuess, len(header))
	var first [][]string
	budget := newTableBudget()
	for l.NRows == 0 || p.Rows < l.NRows {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("row %d: %w", p.Rows+2, err)
			}
			return nil, err
		}
		if err := budget.row(); err != nil {
			return nil, err
		}
		if l.IndexCol && len(rec) > 0 {
			rec = rec[1:]
		}
		if l.NCols > 0 && l.NCols < len(rec) {
			rec = rec[:l.NCols]
		}
		if l.Decimal != "" {
			rec = pointDecimals(rec)
		}
		if p.Rows < headRows {
			first = append(first, slices.Clone(rec))
		}
		if p.Rows < dtypeRows {
			for i := range min(len(rec), len(infer)) {
				infer[i].add(rec[i])
			}
		}
		p.Rows++
	}
	for i, name := range header {
		p.Columns = append(p.Columns, schemas.Column{Name: name, DType: infer[i].dtype()})
	}
	p.Head = FormatHead(header, first)
	return p, nil
}

// tableHeader reads the records above the header (l.SkipRows lines) and
// the header, named as pandas names it.
func tableHeader(cr *csv.Reader, l tableread.Layout) ([]string, error) {
	for {
		rec, err := cr.Read()
		if err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
		if line, _ := cr.FieldPos(0); line-1 < l.SkipRows {
			continue
		}
		rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
		return tableread.Names(rec), nil
	}
}

// pointDecimals writes numbers with a decimal comma with a point.
func pointDecimals(rec []string) []string {
	out := slices.Clone(rec)
	for i, v := range out {
		if d := strings.Replace(strings.TrimSpace(v), ",", ".", 1); d != v && isFloat(d) {
			out[i] = d
		}
	}
	return out
}

func isFloat(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// FormatHead renders a header and rows as aligned text, pandas-like.
func FormatHead(header []string, rows [][]string) string {
	all := append([][]string{header}, rows...)
	ncol := len(header)
	width := make([]int, ncol)
	cell := func(row []string, i int) string {
		if i >= len(row) {
			return ""
		}
		c := strings.Join(strings.Fields(row[i]), " ")
		if r := []rune(c); len(r) > maxCellChars {
			c = string(r[:maxCellChars-1]) + "…"
		}
		return c
	}
	for _, row := range all {
		for i := range ncol {
			width[i] = max(width[i], len([]rune(cell(row, i))))
		}
	}
	var b strings.Builder
	for _, row := range all {
		for i := range ncol {
			c := cell(row, i)
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < ncol-1 {
				b.WriteString(strings.Repeat(" ", width[i]-len([]rune(c))))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// dtypeGuess narrows a column's type as values arrive: bool, int, float,
// date, else string. Empty cells and NA markers do not count.
type dtypeGuess struct {
	seen                      int
	notBool, notInt, notFloat bool
	notDate                   bool
}

var dateLayouts = []string{"2006-01-02", "2006/01/02", "2006-01-02 15:04:05", "2006-01-02T15:04:05", time.RFC3339, "01/02/2006", "02/01/2006", "2006-01", "2006-01-02 15:04", "1/2/2006", "2006.01.02"}

func (g *dtypeGuess) add(v string) {
	v = strings.TrimSpace(v)
	switch strings.ToLower(v) {
	case "", "na", "nan", "null", "none", "n/a", "-":
		return
	}
	g.seen++
	if !g.notBool {
		switch strings.ToLower(v) {
		case "true", "false", "yes", "no":
		default:
			g.notBool = true
		}
	}
	if !g.notInt {
		if _, err := strconv.ParseInt(strings.ReplaceAll(v, ",", ""), 10, 64); err != nil {
			g.notInt = true
		}
	}
	if !g.notFloat {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			g.notFloat = true
		}
	}
	if !g.notDate {
		ok := false
		for _, l := range dateLayouts {
			if _, err := time.Parse(l, v); err == nil {
				ok = true
				break
			}
		}
		g.notDate = !ok
	}
}

func (g *dtypeGuess) dtype() string {
	switch {
	case g.seen == 0:
		return "string"
	case !g.notBool:
		return "bool"
	case !g.notInt:
		return "int"
	case !g.notFloat:
		return "float"
	case !g.notDate:
		return "date"
	}
	return "string"
}
