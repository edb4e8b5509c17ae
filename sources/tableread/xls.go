package tableread

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/shakinm/xlsReader/cfb"
	"github.com/shakinm/xlsReader/xls"
)

// Legacy Excel workbooks (.xls: BIFF8, and BIFF5 text, in an OLE2 compound
// file) are read by github.com/shakinm/xlsReader and by a walk of each
// sheet's records. The library opens the compound file and reads the
// globals (shared strings, cell formats) and the text cells; it skips
// formula cells, reads negative RK numbers as large positive ones and keeps
// no merged ranges, so the walk (xls_records.go) takes numbers, booleans,
// errors, formula results and merged ranges from the records themselves.
// The grid then goes to the same layout finder as an xlsx sheet.

// Bounds on what an xls read may take: a bigger file is refused before it
// is read, a workbook of more cells before the library keeps them, and the library may read the
// file's bytes at most xlsReadFactor times over (sector chains that loop
// back on themselves would otherwise read forever).
var (
	MaxXLSBytes int64 = 64 << 20
	MaxXLSCells       = 2_000_000
)

const (
	maxXLSCols    = 256 // BIFF8's columns
	xlsReadFactor = 8
)

// ReadXLS reads the table on the first worksheet that holds one (a cover
// or notes sheet without a table is passed over; the Layout names the
// sheet). When none does, the error is the first sheet's that is not "no
// table", else the first's. Errors name the file.
func ReadXLS(path string) (*Table, error) {
	sheets, err := ReadXLSSheets(path)
	if err != nil {
		return nil, err
	}
	if len(sheets) == 0 {
		return nil, fmt.Errorf("xls %s: no worksheets", path)
	}
	for i, s := range sheets {
		if s.Err == nil {
			s.Table.Layout.LaterSheet = i > 0
			return s.Table, nil
		}
	}
	why := sheets[0].Err
	for _, s := range sheets {
		if !errors.Is(s.Err, ErrNoTable) {
			why = s.Err
			break
		}
	}
	return nil, fmt.Errorf("xls %s: %w", path, why)
}

// ReadXLSSheets reads the table on every worksheet of a legacy workbook
// (chart and macro sheets left out, as pandas leaves them), in the
// workbook's order: a sheet whose table cannot be read has a nil Table and
// its error. A damaged, truncated or oversized file is an error naming it;
// a panic of the library on hostile bytes is one too.
func ReadXLSSheets(path string) ([]Sheet, error) {
	grids, err := readXLSGrids(path)
	if err != nil {
		return nil, fmt.Errorf("xls %s: %w", path, err)
	}
	var out []Sheet
	for _, g := range grids {
		s := Sheet{Name: g.name, Err: g.err}
		if g.err == nil {
			s.Table, s.Err = xlsTable(g)
		}
		out = append(out, s)
	}
	return out, nil
}

// xlsTable finds the table on one sheet's grid.
func xlsTable(g xlsGrid) (*Table, error) {
	t, err := sheetTable(g.rows, g.merged)
	if err != nil {
		return nil, fmt.Errorf("sheet %s: %w", g.name, err)
	}
	if h, ok := dataInHeader(t.Header); ok {
		return nil, fmt.Errorf("sheet %s: %w", g.name, &Ambiguous{fmt.Sprintf("the header row (row %d) holds %q, a number or a date: it may be the first row of data of a sheet without a header", t.Layout.SkipRows+1, h)})
	}
	t.Layout.Format = "xls"
	t.Layout.Sheet = g.name
	return t, nil
}

// dataInHeader finds a header cell that is data: a date, or a number
// other than a whole year (years name columns).
func dataInHeader(header []string) (string, bool) {
	for _, h := range header {
		if isoDate.MatchString(h) {
			return h, true
		}
		if f, err := strconv.ParseFloat(h, 64); err == nil && !(f == math.Trunc(f) && f >= 1800 && f <= 2100) {
			return h, true
		}
	}
	return "", false
}

// isoDate is a date cell as the reader writes it.
var isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)

// xlsGrid is one worksheet's cells by row as pandas reads them (numbers
// written as Go formats a float, dates as ISO text, "" for an empty cell)
// and its merged ranges; err is why its cells cannot be read.
type xlsGrid struct {
	name   string
	rows   [][]string
	merged []cellRange
	err    error
}

// readXLSGrids reads every worksheet's grid, turning a panic of the
// library (or of the walk) on hostile bytes into an error.
func readXLSGrids(path string) (grids []xlsGrid, err error) {
	defer func() {
		if r := recover(); r != nil {
			grids, err = nil, fmt.Errorf("%w: the workbook is damaged (%v)", ErrUnreadable, r)
		}
	}()
	b, err := readCapped(path, MaxXLSBytes)
	if err != nil {
		return nil, err
	}
	stream, err := workbookStream(b)
	if err != nil {
		return nil, err
	}
	if err := countCells(stream); err != nil {
		return nil, err
	}
	wb, err := xls.OpenReader(newBudgetReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	return bookGrids(stream, &wb)
}

// readCapped reads a file of at most max bytes.
func readCapped(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > max {
		return nil, fmt.Errorf("%w: %d bytes, more than the %d MiB an xls read takes", ErrUnreadable, st.Size(), max>>20)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w: larger than %d MiB, the most an xls read takes", ErrUnreadable, max>>20)
	}
	return b, nil
}

// rootStorage is the object type of a compound file's root entry.
const rootStorage = 5

// workbookStream is the compound file's Workbook (BIFF8) or Book (BIFF5)
// stream, checked against the file's size before the library allocates it.
func workbookStream(b []byte) ([]byte, error) {
	c, err := cfb.OpenReader(newBudgetReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w: not an OLE2 compound file: %w", ErrUnreadable, err)
	}
	var book, root *cfb.Directory
	for _, d := range c.GetDirs() {
		switch d.Name() {
		case "Workbook", "Book":
			if int(d.GetStreamSize()) > len(b) {
				return nil, fmt.Errorf("%w: the %s stream claims %d bytes, more than the file's %d", ErrUnreadable, d.Name(), d.GetStreamSize(), len(b))
			}
			if book == nil || d.Name() == "Book" { // the one the library reads
				book = d
			}
		case "Root Entry":
			root = d
		}
		if d.ObjectType == rootStorage && root == nil {
			root = d // some writers leave the root's name empty
		}
	}
	if book == nil || root == nil {
		return nil, fmt.Errorf("%w: no Workbook stream (not an Excel 95-2003 workbook)", ErrUnreadable)
	}
	size := int(book.GetStreamSize())
	r, err := c.OpenObject(book, root)
	if err != nil {
		return nil, fmt.Errorf("%w: Workbook stream: %w", ErrUnreadable, err)
	}
	s, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%w: Workbook stream: %w", ErrUnreadable, err)
	}
	if len(s) < size {
		return nil, fmt.Errorf("%w: the Workbook stream is truncated (%d of %d bytes)", ErrUnreadable, len(s), size)
	}
	return s[:size], nil
}

// errReadBudget is a compound file whose sector chains read more than the
// file holds many times over: a chain that loops.
var errReadBudget = errors.New("the compound file's sector chains read past the file many times over (a chain loops)")

// budgetReader is the file's bytes, failing once xlsReadFactor times their
// length (and a little) has been read through it.
type budgetReader struct {
	*bytes.Reader
	left int64
}

func newBudgetReader(b []byte) *budgetReader {
	return &budgetReader{Reader: bytes.NewReader(b), left: int64(len(b))*xlsReadFactor + 1<<20}
}

func (r *budgetReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, errReadBudget
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.Reader.Read(p)
	r.left -= int64(n)
	return n, err
}

// libText is the text of a label cell as the library decodes it: BIFF8's
// compressed strings come back as their Latin-1 bytes, made UTF-8 here.
func libText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}
