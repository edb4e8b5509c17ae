// Package xlstest writes small legacy Excel workbooks (.xls, BIFF8 in an
// OLE2 compound file) for tests: the project's tests read xls files they
// write themselves, and the sandbox has no xls writer.
//
// It writes what a reader of a table needs and no more: shared strings
// (SST and LABELSST), numbers (RK for integers, NUMBER otherwise), dates
// (a NUMBER with a date format), formulas with a cached number, merged
// ranges, and the sixteen style formats readers expect. The Workbook stream
// is padded to 4096 bytes or more, so the compound file needs no mini
// stream. Strings must fit one SST record (about 8 KB in all).
package xlstest

import (
	"bytes"
	"encoding/binary"
	"math"
	"time"
	"unicode/utf16"
)

// Sheet is one worksheet: its cells by row (string, int, float64, Date,
// Formula or nil for none) and merged ranges.
type Sheet struct {
	Name   string
	Rows   [][]any
	Merged []Range
}

// Range is a block of cells, 0-based and inclusive.
type Range struct{ R0, C0, R1, C1 int }

// Date is a cell holding a date (shown with Excel's m/d/yy format).
type Date time.Time

// Formula is a formula cell whose cached result is Value.
type Formula struct{ Value float64 }

// Format indexes of the cell formats written: General and a date.
const (
	xfGeneral = 15
	xfDate    = 16
)

// Workbook writes sheets as an .xls file's bytes.
func Workbook(sheets ...Sheet) []byte {
	sst, index := sharedStrings(sheets)
	var globals bytes.Buffer
	rec(&globals, 0x0809, le(uint16(0x0600), uint16(0x0005), uint16(0x0DBB), uint16(0x07CC), uint32(0), uint32(6)))
	rec(&globals, 0x0042, le(uint16(1200))) // CODEPAGE: UTF-16
	rec(&globals, 0x0031, append(le(uint16(200), uint16(0), uint16(0x7FFF), uint16(400), uint16(0), uint8(0), uint8(0), uint8(0), uint8(0)), shortString("Arial")...))
	for i := 0; i < 16; i++ {
		flags := uint16(0xFFF5) // a style XF
		if i == xfGeneral {
			flags = 0x0001
		}
		rec(&globals, 0x00E0, xf(0, flags))
	}
	rec(&globals, 0x00E0, xf(14, 0x0001)) // xfDate: m/d/yy
	boundAt := make([]int, len(sheets))
	for i, s := range sheets {
		boundAt[i] = globals.Len() + 4
		rec(&globals, 0x0085, append(le(uint32(0), uint8(0), uint8(0)), shortString(s.Name)...))
	}
	rec(&globals, 0x00FC, sst)
	rec(&globals, 0x000A, nil)

	stream := globals.Bytes()
	for i, s := range sheets {
		binary.LittleEndian.PutUint32(stream[boundAt[i]:], uint32(len(stream)))
		stream = append(stream, sheetStream(s, index)...)
	}
	for len(stream) < 4096 || len(stream)%512 != 0 {
		stream = append(stream, 0)
	}
	return compoundFile(stream)
}

// sheetStream is one worksheet's substream.
func sheetStream(s Sheet, index map[string]int) []byte {
	var b bytes.Buffer
	rec(&b, 0x0809, le(uint16(0x0600), uint16(0x0010), uint16(0x0DBB), uint16(0x07CC), uint32(0), uint32(6)))
	cols := 0
	for _, r := range s.Rows {
		cols = max(cols, len(r))
	}
	rec(&b, 0x0200, le(uint32(0), uint32(len(s.Rows)), uint16(0), uint16(cols), uint16(0)))
	for r, row := range s.Rows {
		for c, v := range row {
			at := le(uint16(r), uint16(c))
			switch v := v.(type) {
			case string:
				rec(&b, 0x00FD, append(at, le(uint16(xfGeneral), uint32(index[v]))...))
			case int:
				if v >= -1<<29 && v < 1<<29 {
					rec(&b, 0x027E, append(at, le(uint16(xfGeneral), uint32(int32(v)<<2|2))...))
				} else {
					rec(&b, 0x0203, append(at, le(uint16(xfGeneral), math.Float64bits(float64(v)))...))
				}
			case float64:
				rec(&b, 0x0203, append(at, le(uint16(xfGeneral), math.Float64bits(v))...))
			case Date:
				serial := time.Time(v).Sub(time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)).Hours() / 24
				rec(&b, 0x0203, append(at, le(uint16(xfDate), math.Float64bits(serial))...))
			case Formula:
				// cached number, no flags, no chain, formula "=1" (tInt 1)
				rec(&b, 0x0006, append(at, le(uint16(xfGeneral), math.Float64bits(v.Value), uint16(0), uint32(0), uint16(3), uint8(0x1E), uint16(1))...))
			}
		}
	}
	if len(s.Merged) > 0 {
		m := le(uint16(len(s.Merged)))
		for _, g := range s.Merged {
			m = append(m, le(uint16(g.R0), uint16(g.R1), uint16(g.C0), uint16(g.C1))...)
		}
		rec(&b, 0x00E5, m)
	}
	rec(&b, 0x000A, nil)
	return b.Bytes()
}

// sharedStrings is the SST record's body and each string's index.
func sharedStrings(sheets []Sheet) ([]byte, map[string]int) {
	index := map[string]int{}
	var body []byte
	total := 0
	for _, s := range sheets {
		for _, r := range s.Rows {
			for _, v := range r {
				str, ok := v.(string)
				if !ok {
					continue
				}
				total++
				if _, seen := index[str]; !seen {
					index[str] = len(index)
					body = append(body, longString(str)...)
				}
			}
		}
	}
	if len(body) > 8200 {
		panic("xlstest: the shared strings do not fit one SST record")
	}
	return append(le(uint32(total), uint32(len(index))), body...), index
}

// xf is an XF record of number format ifmt.
func xf(ifmt, flags uint16) []byte {
	return append(le(uint16(0), ifmt, flags), make([]byte, 14)...)
}

// shortString is BIFF8's ShortXLUnicodeString: Latin-1 when every
// character fits, UTF-16 otherwise.
func shortString(s string) []byte {
	chars, wide := encodeChars(s)
	return append([]byte{byte(charCount(s)), wide}, chars...)
}

// longString is BIFF8's XLUnicodeString (a 16-bit count).
func longString(s string) []byte {
	chars, wide := encodeChars(s)
	return append(le(uint16(charCount(s)), wide), chars...)
}

func charCount(s string) int { return len(utf16.Encode([]rune(s))) }

func encodeChars(s string) ([]byte, uint8) {
	narrow := true
	for _, r := range s {
		if r > 0xFF {
			narrow = false
		}
	}
	var out []byte
	if narrow {
		for _, r := range s {
			out = append(out, byte(r))
		}
		return out, 0
	}
	for _, u := range utf16.Encode([]rune(s)) {
		out = binary.LittleEndian.AppendUint16(out, u)
	}
	return out, 1
}

// rec appends a BIFF record.
func rec(b *bytes.Buffer, id uint16, data []byte) {
	b.Write(le(id, uint16(len(data))))
	b.Write(data)
}

// le writes fixed-size values little-endian.
func le(vs ...any) []byte {
	var b bytes.Buffer
	for _, v := range vs {
		binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// OLE2 sector ids.
const (
	endOfChain = 0xFFFFFFFE
	fatSector  = 0xFFFFFFFD
	freeSector = 0xFFFFFFFF
	noStream   = 0xFFFFFFFF
)

// compoundFile wraps a Workbook stream (a multiple of 512 bytes, 4096 or
// more) in an OLE2 compound file of 512-byte sectors: the FAT, the
// stream's sectors, then the directory.
func compoundFile(stream []byte) []byte {
	n := len(stream) / 512
	nfat := 1
	for (nfat+n+1+127)/128 > nfat {
		nfat++
	}
	if nfat > 109 {
		panic("xlstest: workbook too large")
	}
	dirSector := nfat + n
	fat := make([]uint32, nfat*128)
	for i := range fat {
		fat[i] = freeSector
	}
	for i := 0; i < nfat; i++ {
		fat[i] = fatSector
	}
	for i := 0; i < n; i++ {
		fat[nfat+i] = uint32(nfat + i + 1)
	}
	fat[nfat+n-1] = endOfChain
	fat[dirSector] = endOfChain

	header := le([8]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, [16]byte{}, uint16(0x003E), uint16(3), uint16(0xFFFE),
		uint16(9), uint16(6), [6]byte{}, uint32(0), uint32(nfat), uint32(dirSector), uint32(0), uint32(4096),
		uint32(endOfChain), uint32(0), uint32(endOfChain), uint32(0))
	for i := 0; i < 109; i++ {
		id := uint32(freeSector)
		if i < nfat {
			id = uint32(i)
		}
		header = append(header, le(id)...)
	}
	out := append(header, le(fat)...)
	out = append(out, stream...)
	dir := append(dirEntry("Root Entry", 5, 1, endOfChain, 0), dirEntry("Workbook", 2, noStream, uint32(nfat), uint32(len(stream)))...)
	dir = append(dir, make([]byte, 256)...)
	return append(out, dir...)
}

// dirEntry is a 128-byte directory entry.
func dirEntry(name string, typ uint8, child, start, size uint32) []byte {
	var n [64]byte
	u := utf16.Encode([]rune(name))
	for i, c := range u {
		binary.LittleEndian.PutUint16(n[2*i:], c)
	}
	return le(n, uint16(2*len(u)+2), typ, uint8(1), uint32(noStream), uint32(noStream), child, [16]byte{}, uint32(0), uint64(0), uint64(0), start, size, uint32(0))
}
