package tableread

import (
	"archive/zip"
	"errors"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// ReadXLSX reads the table on the first sheet of a workbook, as pandas'
// read_excel sees the sheet (cells as excelize formats them). opts are
// excelize's (a caller's limits on unpacked sizes).
func ReadXLSX(path string, opts ...excelize.Options) (*Table, error) {
	f, err := excelize.OpenFile(path, opts...)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, errors.New("no sheets")
	}
	engine, err := engineFor(path)
	if err != nil {
		return nil, err
	}
	t, err := readSheet(f, sheets[0])
	if t != nil {
		t.Layout.Engine = engine
	}
	return t, err
}

// ReadXLSXSheets reads the table on every sheet of a workbook, in the
// workbook's order: a sheet whose table cannot be read has a nil Table
// and its error.
func ReadXLSXSheets(path string, opts ...excelize.Options) ([]Sheet, error) {
	f, err := excelize.OpenFile(path, opts...)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	engine, err := engineFor(path)
	if err != nil {
		return nil, err
	}
	var out []Sheet
	for _, name := range f.GetSheetList() {
		t, err := readSheet(f, name)
		if t != nil {
			t.Layout.Engine = engine
		}
		out = append(out, Sheet{Name: name, Table: t, Err: err})
	}
	return out, nil
}

// engineFor is the engine read_excel must be told for the workbook at
// path: pandas recognises an xlsx by its part xl/workbook.xml and calls any
// other zip a zip, which it cannot read, so a workbook laid out otherwise
// (its parts at the archive's root, as some writers do) needs openpyxl
// named; "" when pandas finds it alone. Such a workbook with shared
// strings is an error: the cell reader here finds those only under xl/,
// and would read every text cell as empty.
func engineFor(path string) (string, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return "", nil
	}
	defer z.Close()
	shared := false
	for _, f := range z.File {
		if f.Name == "xl/workbook.xml" {
			return "", nil
		}
		shared = shared || strings.HasSuffix(strings.ToLower(f.Name), "sharedstrings.xml")
	}
	if shared {
		return "", fmt.Errorf("%w: its parts lie outside xl/ and its text is in shared strings, which only a reader of parts under xl/ would miss", ErrUnreadable)
	}
	return "openpyxl", nil
}

// ErrNoTable marks a sheet or a text read whole that holds no table: no
// header with rows below it.
var ErrNoTable = errors.New("no table")

// ErrUnreadable marks a sheet whose cells cannot be read at all (a damaged
// workbook), as against one read whole whose layout has no table to be sure
// of.
var ErrUnreadable = errors.New("the sheet cannot be read")

// Sheet is one sheet's table, or why it has none.
type Sheet struct {
	Name  string
	Table *Table
	Err   error
}

// readSheet reads the table on one sheet of f.
func readSheet(f *excelize.File, sheet string) (*Table, error) {
	rows, err := f.GetRows(sheet)
	if err != nil {
		return nil, fmt.Errorf("sheet %q: %w: %w", sheet, ErrUnreadable, err)
	}
	merged, err := f.GetMergeCells(sheet)
	if err != nil {
		return nil, fmt.Errorf("sheet %s: %w", sheet, err)
	}
	var spans []cellRange
	for _, m := range merged {
		r, err := rangeOf(m.GetStartAxis(), m.GetEndAxis())
		if err != nil {
			return nil, fmt.Errorf("sheet %s: merged cells %s: %w", sheet, m.GetStartAxis(), err)
		}
		spans = append(spans, r)
	}
	t, err := sheetTable(rows, spans)
	if err != nil {
		return nil, fmt.Errorf("sheet %s: %w", sheet, err)
	}
	t.Layout.Sheet = sheet
	return t, nil
}

// cellRange is a block of cells, 0-based and inclusive.
type cellRange struct{ r0, c0, r1, c1 int }

func rangeOf(from, to string) (cellRange, error) {
	c0, r0, err := excelize.CellNameToCoordinates(from)
	if err != nil {
		return cellRange{}, err
	}
	c1, r1, err := excelize.CellNameToCoordinates(to)
	if err != nil {
		return cellRange{}, err
	}
	return cellRange{r0 - 1, c0 - 1, r1 - 1, c1 - 1}, nil
}

// grid is a sheet's cells by row, as excelize gives them (rows end at
// their last value).
type grid [][]string

func (g grid) at(r, c int) string {
	if r < len(g) && c < len(g[r]) {
		return strings.TrimSpace(g[r][c])
	}
	return ""
}

// filled counts the cells of row r with a value between columns c0 and c1.
func (g grid) filled(r, c0, c1 int) int {
	n := 0
	for c := c0; c <= c1; c++ {
		if g.at(r, c) != "" {
			n++
		}
	}
	return n
}

// colUsed reports a value in column c on rows r0 to r1.
func (g grid) colUsed(c, r0, r1 int) bool {
	for r := r0; r <= r1; r++ {
		if g.at(r, c) != "" {
			return true
		}
	}
	return false
}

// sheetTable finds the first table on a sheet: its header is the first row
// with two values or more that has a row of data below it; titles and notes
// above are skipped, the columns are those the header and its rows fill
// without an empty column between, and the rows run to the first blank
// one, notes of a single cell of text at their end left out.
func sheetTable(rows [][]string, merged []cellRange) (*Table, error) {
	g := grid(rows)
	maxCol := 0
	for _, r := range g {
		maxCol = max(maxCol, len(r))
	}
	h := -1
	for r := range g {
		if g.filled(r, 0, maxCol) >= 2 && r+1 < len(g) && g.filled(r+1, 0, maxCol) >= 1 {
			h = r
			break
		}
	}
	if h < 0 {
		return nil, fmt.Errorf("%w: no row of two or more values with a row below it", ErrNoTable)
	}
	if w := wideHeader(g, h, maxCol); w > h {
		h = w // the rows above are notes, not the header
	}
	c0 := 0
	for g.at(h, c0) == "" {
		c0++
	}
	end := h + 1 // one past the last data row
	for end < len(g) && g.filled(end, 0, maxCol) > 0 {
		end++
	}
	c1, err := lastColumn(g, h, c0, end, maxCol)
	if err != nil {
		return nil, err
	}
	for c0 > 0 && g.colUsed(c0-1, h+1, end-1) {
		c0--
	}
	end = h + 1
	for end < len(g) && g.filled(end, c0, c1) > 0 {
		end++
	}
	width := c1 - c0 + 1
	for end > h+2 && width >= 3 && !rowHasNumber(g, end-1, c0, c1) && (g.filled(end-1, c0, c1) == 1 || textInFigures(g, end-1, h+1, end-1, c0, c1)) {
		end-- // notes right below the rows: a line of text, or words where the rows hold figures
	}
	if end == h+1 {
		return nil, fmt.Errorf("%w: a header without rows", ErrNoTable)
	}
	for _, m := range merged {
		if m.r0 <= h && h <= m.r1 && m.c1 >= c0 && m.c0 <= c1 && (m.c1 > m.c0 || m.r1 > m.r0) {
			return nil, &Ambiguous{fmt.Sprintf("merged header cells %s: which column each name belongs to is a guess", cellName(m.c0, m.r0))}
		}
	}
	l := Layout{Format: "xlsx", SkipRows: h}
	for r := end; r < len(g); r++ {
		if g.filled(r, 0, maxCol) > 0 {
			l.NRows = end - h - 1
			break
		}
	}
	if c0 > 0 || outside(g, h, c0, c1) {
		a, _ := excelize.ColumnNumberToName(c0 + 1)
		b, _ := excelize.ColumnNumberToName(c1 + 1)
		l.UseCols = a + ":" + b
	}
	t := &Table{Layout: l}
	header := make([]string, width)
	for c := c0; c <= c1; c++ {
		header[c-c0] = g.at(h, c)
	}
	t.Header = Names(header)
	for r := h + 1; r < end; r++ {
		row := make([]string, width)
		for c := c0; c <= c1; c++ {
			if r < len(g) && c < len(g[r]) {
				row[c-c0] = g[r][c]
			}
		}
		t.Rows = append(t.Rows, row)
	}
	t.lines.records, t.lines.table = len(g), end-h
	markBlank(t.Rows, &t.Layout)
	dropTotal(t)
	markBools(t)
	return t, nil
}

// textInFigures reports whether row r holds text in a column whose cells
// in rows r0 to r1-1 are figures (three or more, four in five of those
// filled): "at the … bottom," written under ages and dates is a note, "k
// … l" under letters a row.
func textInFigures(g grid, r, r0, r1, c0, c1 int) bool {
	for c := c0; c <= c1; c++ {
		v := g.at(r, c)
		if v == "" || number.MatchString(v) {
			continue
		}
		nums, cells := 0, 0
		for k := r0; k < r1; k++ {
			if x := g.at(k, c); x != "" {
				cells++
				if number.MatchString(x) {
					nums++
				}
			}
		}
		if nums >= 3 && nums*5 >= cells*4 {
			return true
		}
	}
	return false
}

// wideHeader is the header of a sheet whose first rows are notes written
// over several cells ("simply cannot resist writing … some notes"): the
// row right above the first two rows in a row that hold numbers, when it
// fills more cells than the row h the first rule took and no row from h to
// it holds a number. 0 when there is no such row.
func wideHeader(g grid, h, maxCol int) int {
	for r := h + 1; r+1 < len(g); r++ {
		if rowHasNumber(g, r, 0, maxCol) && rowHasNumber(g, r+1, 0, maxCol) {
			w := r - 1
			if w <= h || g.filled(w, 0, maxCol) <= g.filled(h, 0, maxCol) {
				return 0
			}
			for n := h; n <= w; n++ {
				if rowHasNumber(g, n, 0, maxCol) {
					return 0 // a header over two rows (years above quarters), not notes
				}
			}
			return w
		}
	}
	return 0
}

// lastColumn is the last column of the table whose header row h starts
// at column c0, its rows above row end: the columns run on over blank ones
// (pandas reads those as Unnamed) until a blank column with a second
// header to its right, a table beside this one. When that table's rows end
// where this one's do, the two may be one table with a gap: ambiguous.
func lastColumn(g grid, h, c0, end, maxCol int) (int, error) {
	last := c0
	for c := c0 + 1; c < maxCol; c++ {
		if g.colUsed(c, h, end-1) {
			last = c
			continue
		}
		if c == last+1 && g.filled(h, c+1, maxCol) > 0 {
			right := h + 1
			for right < len(g) && g.filled(right, c+1, maxCol) > 0 {
				right++
			}
			left := h + 1
			for left < len(g) && g.filled(left, c0, c-1) > 0 {
				left++
			}
			if right == left {
				return 0, &Ambiguous{fmt.Sprintf("a blank column (%s) splits the header: one table, or two side by side", colName(c))}
			}
			return last, nil
		}
	}
	return last, nil
}

func colName(c int) string {
	n, _ := excelize.ColumnNumberToName(c + 1)
	return n
}

// outside reports a value from row h down outside columns c0 to c1.
func outside(g grid, h, c0, c1 int) bool {
	for r := h; r < len(g); r++ {
		for c := range g[r] {
			if (c < c0 || c > c1) && g.at(r, c) != "" {
				return true
			}
		}
	}
	return false
}

func rowHasNumber(g grid, r, c0, c1 int) bool {
	for c := c0; c <= c1; c++ {
		if number.MatchString(g.at(r, c)) {
			return true
		}
	}
	return false
}

func cellName(c, r int) string {
	n, _ := excelize.CoordinatesToCellName(c+1, r+1)
	return n
}
