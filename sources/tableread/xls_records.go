package tableread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	unicode16 "unicode/utf16"

	"github.com/shakinm/xlsReader/xls"
	xlsrec "github.com/shakinm/xlsReader/xls/record"
)

// BIFF record ids the walk reads.
const (
	recEOF         = 0x000A
	recBOF         = 0x0809
	recBoundSheet  = 0x0085
	recDateMode    = 0x0022
	recNumber      = 0x0203
	recRK          = 0x027E
	recMulRK       = 0x00BD
	recBoolErr     = 0x0205
	recFormula     = 0x0006
	recString      = 0x0207
	recMergedCells = 0x00E5
	recLabelSST    = 0x00FD
	recLabel       = 0x0204
	recRString     = 0x00D6
)

// errTruncated is a record running past the end of the workbook stream.
var errTruncated = errors.New("a record runs past the end of the workbook stream (truncated file)")

// walkRecords calls fn on each record of the substream starting at pos
// (a BOF) until its EOF, with the depth of nested substreams (an embedded
// chart's BOF…EOF inside a sheet is depth 2).
func walkRecords(stream []byte, pos int, fn func(id uint16, data []byte, depth int) error) error {
	depth := 0
	for {
		if pos < 0 || pos+4 > len(stream) {
			return errTruncated
		}
		id := binary.LittleEndian.Uint16(stream[pos:])
		n := int(binary.LittleEndian.Uint16(stream[pos+2:]))
		if pos+4+n > len(stream) {
			return errTruncated
		}
		data := stream[pos+4 : pos+4+n]
		if id == recBOF {
			depth++
		}
		if err := fn(id, data, depth); err != nil {
			return err
		}
		if id == recEOF {
			depth--
			if depth <= 0 {
				return nil
			}
		}
		pos += 4 + n
	}
}

// boundSheet is a BOUNDSHEET record: where a sheet's substream starts and
// whether it is a worksheet (not a chart or macro sheet).
type boundSheet struct {
	pos       int
	worksheet bool
}

// cellRecords are the records that each hold one cell (the library keeps
// blank ones too); MULRK and MULBLANK hold several.
var cellRecords = map[uint16]bool{recNumber: true, recRK: true, recBoolErr: true, recFormula: true, recLabelSST: true,
	recLabel: true, recRString: true, 0x0201: true} // 0x0201 BLANK

// countCells counts the cells of the whole workbook stream before the
// library keeps them all, and refuses more than MaxXLSCells.
func countCells(stream []byte) error {
	n := 0
	for pos := 0; pos+4 <= len(stream); {
		id := binary.LittleEndian.Uint16(stream[pos:])
		size := int(binary.LittleEndian.Uint16(stream[pos+2:]))
		switch {
		case cellRecords[id]:
			n++
		case id == recMulRK && size > 6:
			n += (size - 6) / 6
		case id == 0x00BE && size > 6: // MULBLANK
			n += (size - 6) / 2
		}
		if n > MaxXLSCells {
			return fmt.Errorf("%w: more than %d cells in the workbook", ErrUnreadable, MaxXLSCells)
		}
		pos += 4 + size
	}
	return nil
}

// bookGrids walks the globals for the sheets and the date mode, then each
// worksheet's substream for its cells, the library's sheets giving their
// names and text cells.
func bookGrids(stream []byte, wb *xls.Workbook) ([]xlsGrid, error) {
	var bounds []boundSheet
	date1904 := false
	err := walkRecords(stream, 0, func(id uint16, d []byte, _ int) error {
		switch {
		case id == recBoundSheet && len(d) >= 6:
			bounds = append(bounds, boundSheet{pos: int(binary.LittleEndian.Uint32(d)), worksheet: d[5] == 0})
		case id == recDateMode && len(d) >= 2:
			date1904 = binary.LittleEndian.Uint16(d) == 1
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: workbook globals: %w", ErrUnreadable, err)
	}
	sheets := wb.GetSheets()
	if len(sheets) != len(bounds) {
		return nil, fmt.Errorf("%w: the reader found %d sheets, the workbook lists %d", ErrUnreadable, len(sheets), len(bounds))
	}
	fmts := &xfDates{wb: wb, date1904: date1904, cache: map[int]bool{}}
	var out []xlsGrid
	for i, b := range bounds {
		if !b.worksheet {
			continue
		}
		g := xlsGrid{name: libText(sheets[i].GetName())}
		g.rows, g.merged, g.err = sheetGrid(stream, b.pos, &sheets[i], fmts)
		out = append(out, g)
	}
	return out, nil
}

// cells is a sheet's grid as it is filled (countCells bounded the
// workbook's cells before).
type cells struct {
	rows map[int][]string
	last int // the last row with a cell
}

func (c *cells) set(r, col int, v string) error {
	if col >= maxXLSCols {
		return fmt.Errorf("%w: a cell at column %d, past the 256 columns of an xls sheet", ErrUnreadable, col+1)
	}
	row := c.rows[r]
	if col >= len(row) {
		row = append(row, make([]string, col+1-len(row))...)
	}
	row[col] = v
	c.rows[r] = row
	c.last = max(c.last, r)
	return nil
}

func (c *cells) grid() [][]string {
	if len(c.rows) == 0 {
		return nil
	}
	g := make([][]string, c.last+1)
	for r, row := range c.rows {
		g[r] = row
	}
	return g
}

// sheetGrid walks one worksheet's records into its grid and merged ranges.
func sheetGrid(stream []byte, pos int, sh *xls.Sheet, fmts *xfDates) ([][]string, []cellRange, error) {
	c := &cells{rows: map[int][]string{}}
	var merged []cellRange
	pending := -1 // a formula's cell awaiting its STRING record, r<<16|col
	err := walkRecords(stream, pos, func(id uint16, d []byte, depth int) error {
		if depth != 1 {
			return nil // an embedded chart's records
		}
		u16 := func(i int) int { return int(binary.LittleEndian.Uint16(d[i:])) }
		switch {
		case id == recNumber && len(d) >= 14:
			return c.set(u16(0), u16(2), fmts.number(u16(4), math.Float64frombits(binary.LittleEndian.Uint64(d[6:]))))
		case id == recRK && len(d) >= 10:
			return c.set(u16(0), u16(2), fmts.number(u16(4), rkValue(binary.LittleEndian.Uint32(d[6:]))))
		case id == recMulRK && len(d) >= 6:
			for i, col := 4, u16(2); i+6 <= len(d)-2; i, col = i+6, col+1 {
				if err := c.set(u16(0), col, fmts.number(u16(i), rkValue(binary.LittleEndian.Uint32(d[i+2:])))); err != nil {
					return err
				}
			}
		case id == recBoolErr && len(d) >= 8:
			return c.set(u16(0), u16(2), boolErr(d[6], d[7] == 1))
		case id == recFormula && len(d) >= 20:
			v, kind := formulaResult(d[6:14])
			switch kind {
			case resultNumber:
				v = fmts.number(u16(4), math.Float64frombits(binary.LittleEndian.Uint64(d[6:])))
			case resultString:
				pending = u16(0)<<16 | u16(2)
				return nil
			case resultEmpty:
				return nil // pandas reads an empty text result as missing
			}
			return c.set(u16(0), u16(2), v)
		case id == recString && pending >= 0:
			r, col := pending>>16, pending&0xFFFF
			pending = -1
			return c.set(r, col, biffString(d, fmts.biff8()))
		case id == recMergedCells && len(d) >= 2:
			for i := 2; i+8 <= len(d) && (i-2)/8 < u16(0); i += 8 {
				merged = append(merged, cellRange{r0: u16(i), r1: u16(i + 2), c0: u16(i + 4), c1: u16(i + 6)})
			}
		case (id == recLabelSST || id == recLabel || id == recRString) && len(d) >= 6:
			return c.set(u16(0), u16(2), labelText(sh, u16(0), u16(2), d, id))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return c.grid(), merged, nil
}

// labelText is a text cell's value: the library's, which holds the shared
// strings; a BIFF5 rich string (RSTRING, which the library skips) as its
// bytes.
func labelText(sh *xls.Sheet, r, col int, d []byte, id uint16) string {
	if id == recRString && len(d) >= 8 {
		n := int(binary.LittleEndian.Uint16(d[6:]))
		return libText(string(d[8:min(len(d), 8+n)]))
	}
	row, err := sh.GetRow(r)
	if err != nil {
		return ""
	}
	cell, err := row.GetCol(col)
	if err != nil {
		return ""
	}
	switch cell.(type) {
	case *xlsrec.LabelSSt, *xlsrec.LabelBIFF8, *xlsrec.LabelBIFF5:
		return libText(cell.GetString())
	}
	return ""
}

// rkValue decodes an RK number: a 30-bit signed integer or the top 30 bits
// of a double, divided by 100 when bit 0 is set.
func rkValue(rk uint32) float64 {
	var v float64
	if rk&2 != 0 {
		v = float64(int32(rk) >> 2)
	} else {
		v = math.Float64frombits(uint64(rk&^3) << 32)
	}
	if rk&1 != 0 {
		v /= 100
	}
	return v
}

// Kinds of a formula's cached result.
const (
	resultNumber = iota
	resultString // held in the next STRING record
	resultValue  // a boolean or an error, written
	resultEmpty
)

// formulaResult reads a FORMULA record's cached result: a number (the
// caller formats it), text held in the next STRING record, a boolean or an
// error (written), or empty text.
func formulaResult(res []byte) (v string, kind int) {
	if res[6] != 0xFF || res[7] != 0xFF {
		return "", resultNumber
	}
	switch res[0] {
	case 0:
		return "", resultString
	case 1:
		return boolErr(res[2], false), resultValue
	case 2:
		return boolErr(res[2], true), resultValue
	}
	return "", resultEmpty
}

// boolErr writes a boolean cell as pandas reads it, or an error cell as
// Excel shows it (pandas reads those as missing).
func boolErr(v byte, isErr bool) string {
	if !isErr {
		if v != 0 {
			return "True"
		}
		return "False"
	}
	if e, ok := map[byte]string{0x00: "#NULL!", 0x07: "#DIV/0!", 0x0F: "#VALUE!", 0x17: "#REF!", 0x1D: "#NAME?", 0x24: "#NUM!", 0x2A: "#N/A"}[v]; ok {
		return e
	}
	return "#N/A"
}

// biffString decodes a STRING record: BIFF8's character count, flags and
// Latin-1 or UTF-16 characters; BIFF5's count and bytes.
func biffString(d []byte, biff8 bool) string {
	if len(d) < 2 {
		return ""
	}
	n := int(binary.LittleEndian.Uint16(d))
	if !biff8 {
		return libText(string(d[2:min(len(d), 2+n)]))
	}
	if len(d) < 3 {
		return ""
	}
	body := d[3:]
	if d[2]&1 == 0 {
		return libText(string(body[:min(len(body), n)]))
	}
	u := make([]uint16, 0, n)
	for i := 0; i+1 < len(body) && len(u) < n; i += 2 {
		u = append(u, binary.LittleEndian.Uint16(body[i:]))
	}
	return string(unicode16.Decode(u))
}

// xfDates tells the cells whose format is a date's and writes numbers as
// pandas reads them: integral floats as integers, dates as ISO text.
type xfDates struct {
	wb       *xls.Workbook
	date1904 bool
	cache    map[int]bool
}

func (f *xfDates) biff8() bool {
	v := f.wb.GetVersionBIFF()
	return len(v) == 2 && v[0] == 0x00 && v[1] == 0x06
}

func (f *xfDates) number(xf int, v float64) string {
	if f.isDate(xf) && v >= 0 && v < 2958466 {
		return excelDate(v, f.date1904)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// isDate reports whether cell format xf shows a date or time: a built-in
// date format or a format string with date letters outside quotes and
// brackets.
func (f *xfDates) isDate(xf int) (date bool) {
	if d, ok := f.cache[xf]; ok {
		return d
	}
	defer func() {
		if recover() != nil {
			date = false // an XF index the workbook lacks
		}
		f.cache[xf] = date
	}()
	x := f.wb.GetXFbyIndex(xf)
	id := x.GetFormatIndex()
	if (id >= 14 && id <= 22) || (id >= 45 && id <= 47) {
		return true
	}
	if id < 164 {
		return false
	}
	format := f.wb.GetFormatByIndex(id)
	return dateFormat(format.String())
}

// dateFormat reports date or time letters in a number format string,
// leaving out quoted text, escaped characters and bracketed parts
// (colours, locales).
func dateFormat(s string) bool {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				i = len(s)
			} else {
				i += j + 1
			}
		case '\\', '_', '*':
			i++
		case '[':
			j := strings.IndexByte(s[i:], ']')
			inner := strings.ToLower(s[i+1 : i+max(j, 1)])
			if j > 0 && (inner == "h" || inner == "hh" || inner == "m" || inner == "mm" || inner == "s" || inner == "ss") {
				return true // elapsed time
			}
			if j < 0 {
				i = len(s)
			} else {
				i += j
			}
		default:
			b.WriteByte(s[i])
		}
	}
	rest := strings.ToLower(b.String())
	if rest == "general" {
		return false
	}
	return strings.ContainsAny(rest, "ymdhs")
}

// excelDate writes an Excel serial date as pandas names it (a column
// whose header cell is a date is named str(Timestamp)): the date and the
// time of day; a time alone below one day.
func excelDate(v float64, date1904 bool) string {
	base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	if date1904 {
		base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	ms := math.Round(v * 86400 * 1000)
	t := base.Add(time.Duration(ms) * time.Millisecond)
	if v < 1 && !date1904 {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04:05")
}
