// Package tableread is the one reader of table files (delimited text:
// csv, tsv, tables saved as .txt; xlsx workbooks; JSON documents). It finds
// where the table its owner meant lies in the file and records how to read
// it: the encoding, the delimiter, comment lines, decimal commas, the rows
// above the header (titles, notes), a row-name column, the rows below the
// table, the sheet and its columns; in JSON, the key path to the largest
// array of records or object of records keyed by id (ReadJSON), and the
// document's ordered tree (ParseJSON) for what asks about its structure. Typing and previews (package sources), the
// templates (generators/template) and the reference code they write all go
// through it, the last by Layout.Call, which states every fact to pandas.
//
// It reads structure, never values a task expects: those come from running
// Python on the file. Where the layout cannot be told for sure (merged
// header cells, rows longer than the header), Read returns an *Ambiguous
// error naming why, and the file gets no table task.
//
// It imports nothing of synth.
package tableread

import (
	"fmt"
	"strconv"
	"strings"
)

// Layout is how to read one table out of a file as its owner meant it,
// in pandas' terms.
type Layout struct {
	// Format is "delimited" (read_csv), "xlsx" or "xls" (read_excel), or
	// "json" (json.load, then json_normalize or DataFrame.from_dict).
	Format string
	// Encoding is the Python codec of delimited text or a JSON document.
	Encoding string
	// Sep is delimited text's field separator: , ; tab or |, or the regular
	// expression \s+ for columns aligned with runs of spaces.
	Sep string
	// Comment is "#" when lines starting with it lie among the table's rows.
	Comment string
	// Decimal is "," when the numbers are written with decimal commas.
	Decimal string
	// Thousands is "." when numbers above 999 are written 1.613.
	Thousands string
	// NAValues are the marks written for a missing figure in columns of
	// numbers (".", ".."), and cells of nothing but spaces (" "), which
	// pandas reads as text unless told.
	NAValues []string
	// SkipRows counts the lines (rows of a sheet) above the header: titles,
	// notes, comment and blank lines.
	SkipRows int
	// NRows is how many data rows the table has when notes or another
	// table follow it; 0 reads to the end.
	NRows int
	// Total is the first cell of a last row that totals (or, with
	// TotalIsMean, averages) the rows above it, which NRows leaves out; ""
	// when there is none.
	Total       string
	TotalIsMean bool
	// IndexCol is set when the first field of each row is the row's name
	// and the header has no name for it (R's write.table).
	IndexCol bool
	// UseCols is a sheet's column range ("B:F") when the table does not
	// span the sheet's used columns from A; "" reads them all.
	UseCols string
	// NCols is how many columns of delimited text the table has when the
	// lines end in columns with no name and no value (trailing separators):
	// pandas reads the first NCols (usecols=range(NCols)); 0 reads them all.
	NCols int
	// Sheet is the worksheet the table is on; LaterSheet is set when it is
	// not the workbook's first (which pandas reads by default).
	Sheet      string
	LaterSheet bool
	// Engine is the reader pandas must be told to use ("openpyxl") for a
	// workbook whose parts pandas does not recognise by name (a workbook
	// part outside xl/): its sniffing would call the file a plain zip.
	Engine string
	// Path is the object keys that lead from a JSON document's root to
	// its table (none: the root); Orient how its rows lie there
	// (OrientRecords or OrientIndex).
	Path   []string
	Orient string
}

// Table is a table as pandas reads it with its Layout: the column names
// pandas gives and the data rows' cells as written ("" for an empty cell;
// numbers with a decimal comma written with a point).
type Table struct {
	Layout Layout
	Header []string
	Rows   [][]string
	// Objects marks the columns of a JSON table that hold a list, an
	// object or a boolean in some row: pandas keeps those as Python objects
	// (lists and dicts cannot be hashed, grouped or written back as the
	// cells read here) or as bools (which a query's "True" does not
	// equal).
	Objects []bool
	// Bools marks the columns of a delimited or sheet table whose every
	// filled cell is a boolean as pandas reads one (True, FALSE …): pandas
	// makes them bools, which a query's "False" does not equal.
	Bools []bool
	// Strings marks the columns of a JSON table holding a string in some
	// row: pandas keeps them as text however numeric they look ("2.1").
	Strings []bool
	// lines counts what a head held, to judge whether it is a table at all.
	lines struct {
		records, table int // records parsed; the header and data rows among them
		headerLine     string
		belowHeader    string // the line below the header
	}
}

// Ambiguous is the error of a file whose table cannot be told for sure.
type Ambiguous struct{ Reason string }

func (e *Ambiguous) Error() string { return "ambiguous layout: " + e.Reason }

// Plain reports whether pandas reads the table with its defaults but for
// the encoding and separator: nothing above, below or beside it.
func (l Layout) Plain() bool {
	return l.Engine == "" && l.Thousands == "" && len(l.NAValues) == 0 && l.Comment == "" && l.Decimal == "" && l.SkipRows == 0 && l.NRows == 0 && !l.IndexCol && l.UseCols == "" && l.NCols == 0
}

// Sheeted reports a workbook's table (xlsx or xls), which pandas reads
// with read_excel from a named sheet.
func (l Layout) Sheeted() bool { return l.Format == "xlsx" || l.Format == "xls" }

// Args are the keyword arguments that make pandas read the table as
// meant, in the order Call writes them, each as "name=value" in Python.
// The encoding and the separator of delimited text and the sheet are
// always stated.
func (l Layout) Args() []string {
	var a []string
	q := strconv.Quote
	if l.Sheeted() {
		a = append(a, "sheet_name="+q(l.Sheet))
		if l.Engine != "" {
			a = append(a, "engine="+q(l.Engine))
		}
		if len(l.NAValues) > 0 {
			a = append(a, naList(l.NAValues))
		}
	} else {
		a = append(a, "encoding="+q(l.Encoding), "sep="+q(l.Sep))
		if l.Comment != "" {
			a = append(a, "comment="+q(l.Comment))
		}
		if l.Decimal != "" {
			a = append(a, "decimal="+q(l.Decimal))
		}
		if l.Thousands != "" {
			a = append(a, "thousands="+q(l.Thousands))
		}
		if len(l.NAValues) > 0 {
			a = append(a, naList(l.NAValues))
		}
	}
	if l.SkipRows > 0 {
		a = append(a, fmt.Sprintf("skiprows=%d", l.SkipRows))
	}
	if l.UseCols != "" {
		a = append(a, "usecols="+q(l.UseCols))
	}
	if l.NCols > 0 {
		a = append(a, fmt.Sprintf("usecols=range(%d)", l.NCols))
	}
	if l.NRows > 0 {
		a = append(a, fmt.Sprintf("nrows=%d", l.NRows))
	}
	if l.IndexCol {
		a = append(a, "index_col=0")
	}
	return a
}

// Call is the pandas call that reads the table at path (a Python
// expression): pd.read_csv or pd.read_excel with every fact stated, or for
// JSON the document loaded with its encoding and the table's path
// subscripted (the code around it imports json: NeedsJSON).
func (l Layout) Call(path string) string {
	if l.NeedsJSON() {
		return l.jsonCall(path)
	}
	fn := "pd.read_csv"
	if l.Sheeted() {
		fn = "pd.read_excel"
	}
	return fn + "(" + strings.Join(append([]string{strconv.Quote(path)}, l.Args()...), ", ") + ")"
}

// Names names the columns as pandas does when it reads a header row: a
// blank name is "Unnamed: i" (i counting from 0) and a repeated name gets
// ".1", ".2" …, so that a query, an answer and a solver's DataFrame call a
// column the same.
func Names(header []string) []string {
	out := make([]string, len(header))
	seen := map[string]int{}
	for i, h := range header {
		if h == "" {
			h = fmt.Sprintf("Unnamed: %d", i)
		}
		if n, dup := seen[h]; dup {
			name := h
			for dup {
				n++
				name = fmt.Sprintf("%s.%d", h, n)
				_, dup = seen[name]
			}
			seen[h] = n
			h = name
		}
		seen[h] = seen[h]
		out[i] = h
	}
	return out
}
