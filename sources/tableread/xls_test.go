package tableread

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"synth/sources/tableread/xlstest"
)

// xlsCases are legacy workbooks in the layouts real ones come in, written
// by xlstest; TestLayouts and TestLayoutsAgreeWithPandas read them with
// the xlsx cases.
func xlsCases() []layoutCase {
	day := func(y, m, d int) xlstest.Date {
		return xlstest.Date(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC))
	}
	xl := func(sheet string, f func(*Layout)) Layout {
		l := Layout{Format: "xls", Sheet: sheet}
		f(&l)
		return l
	}
	none := func(*Layout) {}
	return []layoutCase{
		{name: "plain.xls", book: xlstest.Workbook(xlstest.Sheet{Name: "Sheet1", Rows: [][]any{
			{"k", "v", "when"}, {"a", -3, day(2020, 3, 1)}, {"b", 2.25, day(2021, 1, 2)}, {"c", xlstest.Formula{Value: -7.5}, day(2022, 12, 31)}}}),
			want: xl("Sheet1", none), header: []string{"k", "v", "when"}, rows: 3, cell: [2]int{0, 1}, value: "-3"},
		{name: "nameless_root.xls", book: namelessRoot(xlstest.Workbook(xlstest.Sheet{Name: "Sheet1", Rows: [][]any{
			{"date", "temperature", "place"}, {day(2011, 1, 1), 1, "Galway"}, {day(2011, 1, 2), -1, "Galway"}, {day(2011, 1, 1), 6, "Berkeley"}}})),
			want: xl("Sheet1", none), header: []string{"date", "temperature", "place"}, rows: 3, cell: [2]int{2, 2}, value: "Berkeley"},
		{name: "formula.xls", book: xlstest.Workbook(xlstest.Sheet{Name: "Sheet1", Rows: [][]any{
			{"item", "price", "qty", "total"}, {"pen", 1.5, 2, xlstest.Formula{Value: 3}}, {"cup", 2, 3, xlstest.Formula{Value: 6}}}}),
			want: xl("Sheet1", none), header: []string{"item", "price", "qty", "total"}, rows: 2, cell: [2]int{1, 3}, value: "6"},
		{name: "dates.xls", book: xlstest.Workbook(xlstest.Sheet{Name: "Sheet1", Rows: [][]any{
			{"when", "n"}, {day(2009, 8, 16), 1}, {day(2012, 8, 23), 2}}}),
			want: xl("Sheet1", none), header: []string{"when", "n"}, rows: 2, cell: [2]int{1, 0}, value: "2012-08-23 00:00:00"},
		{name: "titles.xls", book: xlstest.Workbook(xlstest.Sheet{Name: "Données", Rows: [][]any{
			{"Rapport des ventes"}, {"en milliers"}, {}, {"région", "t1", "t2"}, {"Nord", 1, 2}, {"Sud", 3, 4}, {"Est", 5, 6}, {}, {"Source : grand livre"}}}),
			want: xl("Données", func(l *Layout) { l.SkipRows, l.NRows = 3, 3 }), header: []string{"région", "t1", "t2"}, rows: 3, cell: [2]int{1, 0}, value: "Sud"},
		{name: "offset.xls", book: xlstest.Workbook(xlstest.Sheet{Name: "Лист1", Rows: [][]any{
			{"Quarterly figures"}, {}, {nil, nil, "region", "q1", "q2"}, {nil, nil, "N", 1, 2}, {nil, nil, "S", 3, 4}, {nil, nil, "E", 5, 6}}}),
			want: xl("Лист1", func(l *Layout) { l.SkipRows, l.UseCols = 2, "C:E" }), header: []string{"region", "q1", "q2"}, rows: 3},
		{name: "two_sheets.xls", book: xlstest.Workbook(
			xlstest.Sheet{Name: "notes", Rows: [][]any{{"id", "note"}, {1, "first"}, {2, "second"}}},
			xlstest.Sheet{Name: "data", Rows: [][]any{{"x", "y"}, {1, 2}}}),
			want: xl("notes", none), header: []string{"id", "note"}, rows: 2, cell: [2]int{1, 1}, value: "second"},
		{name: "cover_then_table.xls", book: xlstest.Workbook(
			xlstest.Sheet{Name: "Cover", Rows: [][]any{{"Annual report"}, {}, {"Prepared by the office"}}},
			xlstest.Sheet{Name: "data", Rows: [][]any{{"x", "y"}, {1, 2}, {3, 4}}}),
			want: xl("data", func(l *Layout) { l.LaterSheet = true }), header: []string{"x", "y"}, rows: 2},
	}
}

// namelessRoot empties the name of a compound file's root entry, as some
// writers (Excel for the Mac) leave it.
func namelessRoot(b []byte) []byte {
	name := []byte{}
	for _, r := range "Root Entry" {
		name = append(name, byte(r), 0)
	}
	i := strings.Index(string(b), string(name))
	if i < 0 {
		panic("no root entry")
	}
	clear(b[i : i+64])
	binary.LittleEndian.PutUint16(b[i+64:], 0)
	return b
}

// TestXLSSheets reads every sheet of a workbook, each sheet's layout
// naming it, and names why a sheet holds no table.
func TestXLSSheets(t *testing.T) {
	p := filepath.Join(t.TempDir(), "book.xls")
	os.WriteFile(p, xlstest.Workbook(
		xlstest.Sheet{Name: "first", Rows: [][]any{{"a", "b"}, {1, 2}}},
		xlstest.Sheet{Name: "cover", Rows: [][]any{{"Annual report"}}},
		xlstest.Sheet{Name: "Zweite Tabelle", Rows: [][]any{{"Titel"}, {"k", "v"}, {"x", 9}, {"y", 8}}}), 0o644)
	sheets, err := ReadXLSSheets(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(sheets) != 3 {
		t.Fatalf("%d sheets, want 3", len(sheets))
	}
	if s := sheets[2]; s.Err != nil || s.Name != "Zweite Tabelle" || s.Table.Layout.Sheet != s.Name || s.Table.Layout.SkipRows != 1 || len(s.Table.Rows) != 2 {
		t.Errorf("third sheet: %+v", s)
	}
	if !errors.Is(sheets[1].Err, ErrNoTable) {
		t.Errorf("a cover sheet: %v, want no table", sheets[1].Err)
	}
}

// hostileXLS are workbooks damaged in the ways a hostile or broken file is.
func hostileXLS(t *testing.T) map[string][]byte {
	good := xlstest.Workbook(xlstest.Sheet{Name: "Sheet1", Rows: [][]any{{"k", "v"}, {"a", 1}, {"b", 2}}})
	patch := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		f(b)
		return b
	}
	stream := 512 + 512 // the header and one FAT sector
	boundSheet := strings.Index(string(good), "\x85\x00")
	if boundSheet < 0 {
		t.Fatal("no BOUNDSHEET in the written workbook")
	}
	return map[string][]byte{
		"not ole2":  []byte("this is text, not a workbook"),
		"truncated": good[:len(good)/2],
		"fat cycle": patch(func(b []byte) { binary.LittleEndian.PutUint32(b[512+4:], 1) }), // the stream's first sector points to itself
		"huge stream claim": patch(func(b []byte) {
			binary.LittleEndian.PutUint32(b[len(b)-512+128+120:], 0x7FFFFFF0) // the Workbook entry's size
		}),
		"sheet past the stream": patch(func(b []byte) { binary.LittleEndian.PutUint32(b[boundSheet+4:], 0x00FFFFF0) }),
		"record past the stream": patch(func(b []byte) {
			binary.LittleEndian.PutUint16(b[stream+2:], 0xFFF0) // the BOF's length
		}),
	}
}

// hostileWhy is what the error of a hostile workbook says.
var hostileWhy = map[string]string{
	"not ole2":               "not an OLE2 compound file",
	"fat cycle":              "a chain loops",
	"huge stream claim":      "claims 2147483632 bytes",
	"sheet past the stream":  "damaged",
	"record past the stream": "damaged",
}

// TestXLSReadBudget: the reader the library reads the file through fails
// once it has read the file's bytes xlsReadFactor times over and a MiB.
func TestXLSReadBudget(t *testing.T) {
	r := newBudgetReader(make([]byte, 1000))
	buf := make([]byte, 512)
	read := 0
	for {
		if _, err := r.Seek(0, 0); err != nil {
			t.Fatal(err)
		}
		n, err := r.Read(buf)
		read += n
		if errors.Is(err, errReadBudget) {
			break
		}
		if read > 1000*xlsReadFactor+1<<20 {
			t.Fatalf("read %d bytes of a 1000-byte file without failing", read)
		}
	}
	if read < 1000*xlsReadFactor {
		t.Errorf("failed after %d bytes, before its budget", read)
	}
}

// TestXLSHostile: a damaged workbook is an error naming the file, never a
// panic nor a read without end.
func TestXLSHostile(t *testing.T) {
	dir := t.TempDir()
	for name, b := range hostileXLS(t) {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".xls")
		os.WriteFile(p, b, 0o644)
		done := make(chan error, 1)
		go func() { _, err := ReadXLS(p); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), p) {
				t.Errorf("%s: error %v, want one naming %s", name, err, p)
			}
			if why := hostileWhy[name]; err != nil && !strings.Contains(err.Error(), why) {
				t.Errorf("%s: error %v, want it to say %q", name, err, why)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: still reading after 20s", name)
		}
	}
}

// TestXLSLibraryPanicIsAnError: bytes that make the library panic (a
// sheet whose records start past the stream) come back as an error.
func TestXLSLibraryPanicIsAnError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "panics.xls")
	os.WriteFile(p, hostileXLS(t)["sheet past the stream"], 0o644)
	_, err := readXLSGrids(p)
	if err == nil || !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("got %v, want the library's panic as a damaged workbook", err)
	}
}

// TestXLSBounds: a file over the size bound is refused before it is read,
// and a sheet of more cells than the bound is refused.
func TestXLSBounds(t *testing.T) {
	dir := t.TempDir()
	rows := [][]any{{"k", "v"}}
	for i := range 50 {
		rows = append(rows, []any{"r", i})
	}
	p := filepath.Join(dir, "big.xls")
	os.WriteFile(p, xlstest.Workbook(xlstest.Sheet{Name: "Sheet1", Rows: rows}), 0o644)
	if _, err := ReadXLS(p); err != nil {
		t.Fatalf("within the bounds: %v", err)
	}
	defer func(b int64, c int) { MaxXLSBytes, MaxXLSCells = b, c }(MaxXLSBytes, MaxXLSCells)
	MaxXLSCells = 60
	if _, err := ReadXLS(p); err == nil || !strings.Contains(err.Error(), "more than 60 cells in the workbook") {
		t.Errorf("102 cells past a bound of 60: %v", err)
	}
	MaxXLSCells, MaxXLSBytes = 2_000_000, 4096
	if _, err := ReadXLS(p); err == nil || !strings.Contains(err.Error(), "MiB") {
		t.Errorf("a file past the size bound: %v", err)
	}
}

// FuzzXLS: no bytes make the reader panic or read without end.
func FuzzXLS(f *testing.F) {
	good := xlstest.Workbook(xlstest.Sheet{Name: "Sheet1", Rows: [][]any{{"k", "v", "w"}, {"a", 1, 2.5}, {"b", 2, -3}}, Merged: []xlstest.Range{{R0: 1, C0: 1, R1: 2, C1: 1}}})
	f.Add(good)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		b := append([]byte(nil), good...)
		for range 4 {
			b[r.IntN(len(b))] = byte(r.IntN(256))
		}
		f.Add(b)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "f.xls")
		os.WriteFile(p, b, 0o644)
		ReadXLSSheets(p)
	})
}
