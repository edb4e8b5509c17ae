package sources

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestMessyTablesTyped: tables in the layouts real files come in are typed
// as tables by content, whatever their name, and previewed through the
// table package tableread finds (its pandas arguments in Preview.Read).
func TestMessyTablesTyped(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, data, typ, read string
		rows                  int
	}{
		{"semicolon.csv", "name;price;qty\npen;1,5;2\ncup;2,25;1\nmug;10,0;3\n", "csv", `encoding="utf-8", sep=";", decimal=","`, 3},
		{"comments.tsv", "# exported by a tool\n# columns: id, val, w\nid\tval\tw\n1\t2\t3\n4\t5\t6\n7\t8\t9\n", "tsv", `encoding="utf-8", sep="\t", skiprows=2`, 3},
		{"r_export.txt", "\"x\"\t\"y\"\t\"z\"\n\"r1\"\t1\t2\t3\n\"r2\"\t4\t5\t6\n\"r3\"\t7\t8\t9\n", "tsv", `encoding="utf-8", sep="\t", index_col=0`, 3},
		{"r_export_comma.txt", "\"x\",\"y\",\"z\"\n\"r1\",1,2,3\n\"r2\",4,5,6\n\"r3\",7,8,9\n", "csv", `encoding="utf-8", sep=",", index_col=0`, 3},
		{"aligned.txt", "Region    Item      Volume\nEast      Apple     9000\nSouth     Orange    9000\nNorth     Apple     2000\n", "csv", `encoding="utf-8", sep="\\s+"`, 3},
		{"mac.tsv", "Survey export\nname\tage\tcity\rann\t3\tOslo\rbo\t4\tLima\rcy\t5\tRome\r", "tsv", `encoding="utf-8", sep="\t", skiprows=1`, 3},
		{"stacked.csv", "Raiders at Jets,,\nstate,sales,tickets\nNY,47%,45%\nNJ,28%,31%\nCT,5%,5%\n,,\nBears at Jets,,\nstate,sales,tickets\nNY,43%,43%\nIL,9%,7%\nCT,5%,4%\n", "csv", `encoding="utf-8", sep=",", skiprows=1, nrows=3`, 3},
		{"two_row_header.tsv", "Your name?\t\tHow do you weight?\t\nName\tOrganization\tResponse\tResponse\nAnn\tA Co\tBy age\tyes\nBo\tB Inc\tNot at all\tno\n", "tsv", `encoding="utf-8", sep="\t"`, 3},
		{"titled.txt", "Sales report 2020\nPrepared by finance\n\nregion|q1|q2\nN|1|2\nS|3|4\nE|5|6\n\nSource: internal ledger\n", "csv", `encoding="utf-8", sep="|", skiprows=3, nrows=3`, 3},
	} {
		p := filepath.Join(dir, c.name)
		os.WriteFile(p, []byte(c.data), 0o644)
		typ, err := DetectFile(p)
		if err != nil || typ != c.typ {
			t.Errorf("%s typed %q (%v), want %q", c.name, typ, err, c.typ)
			continue
		}
		pv, err := Preview(p, typ)
		if err != nil {
			t.Errorf("%s: preview: %v", c.name, err)
			continue
		}
		if pv.Read != c.read || pv.Rows != c.rows {
			t.Errorf("%s: preview reads %d rows with %s, want %d with %s", c.name, pv.Rows, pv.Read, c.rows, c.read)
		}
	}
}

// TestProseStaysText: text with commas and # headings is not a table.
func TestProseStaysText(t *testing.T) {
	for _, s := range []string{
		"# Notes\n\nWe met on Monday, and again on Friday.\nThe plan, as agreed, is to ship soon.\nQuestions, if any, go to the list.\n",
		"# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nSome **bold** text.\n",
		"# Data\n\nThe columns:\n\nHeader | Definition\n---|---------\n`URL`| The page\n`Name` | The name\n`Year` | The year\n",
	} {
		if typ := Detect([]byte(s), "notes.txt"); typ == "csv" || typ == "tsv" {
			t.Errorf("typed %s: %q", typ, s)
		}
	}
}

// TestXLSXWithoutDocProps: a workbook without its optional parts (docProps,
// as some writers leave them out) is typed xlsx, from its head and from
// its central directory.
func TestXLSXWithoutDocProps(t *testing.T) {
	f := excelize.NewFile()
	f.SetCellValue("Sheet1", "A1", "x")
	var full bytes.Buffer
	if err := f.Write(&full); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(full.Bytes()), int64(full.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, e := range zr.File {
		if strings.HasPrefix(e.Name, "docProps/") {
			continue
		}
		// Names as some writers spell them: a leading slash and backslashes.
		w, _ := zw.Create("/" + strings.ReplaceAll(e.Name, "/", "\\"))
		r, _ := e.Open()
		io.Copy(w, r)
		r.Close()
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "book.xlsx")
	os.WriteFile(p, out.Bytes(), 0o644)
	if typ, err := DetectFile(p); err != nil || typ != "xlsx" {
		t.Errorf("DetectFile: %q, %v; want xlsx", typ, err)
	}
	if typ := Detect(out.Bytes(), "book.bin"); typ != "xlsx" {
		t.Errorf("Detect: %q, want xlsx", typ)
	}
}

// TestWorkbookWithoutATableIsCollected: a workbook whose sheet holds no
// table (a title and a lone column) is still stored, its sheets previewed,
// so that the generate stage names why it has no task instead of the file
// vanishing at collection.
func TestWorkbookWithoutATableIsCollected(t *testing.T) {
	f := excelize.NewFile()
	f.SetCellValue("Sheet1", "A1", "Survey results, spring")
	for r := 3; r <= 6; r++ {
		f.SetCellValue("Sheet1", fmt.Sprintf("A%d", r), r)
	}
	p := filepath.Join(t.TempDir(), "notable.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := os.Open(p)
	defer body.Close()
	file, err := st.Put(Item{Name: "notable.xlsx", Body: body})
	if err != nil {
		t.Fatalf("a workbook without a table was refused at collection: %v", err)
	}
	if file.Type != "xlsx" || file.Preview == nil || len(file.Preview.Sheets) != 1 || len(file.Preview.Columns) != 0 {
		t.Errorf("stored %+v, want an xlsx with its sheet listed and no table told", file)
	}
}

// TestPreviewLeavesOutEmptyTrailingColumns: lines ending in separators
// with nothing between them (",,") add no columns to a preview, as the
// reading states usecols=range(n).
func TestPreviewLeavesOutEmptyTrailingColumns(t *testing.T) {
	p := filepath.Join(t.TempDir(), "trailing.csv")
	os.WriteFile(p, []byte("name,n,,\nann,1,,\nbo,2,,\ncy,3,,\n"), 0o644)
	pv, err := Preview(p, "csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(pv.Columns) != 2 || pv.Read != `encoding="utf-8", sep=",", usecols=range(2)` || pv.Rows != 3 {
		t.Errorf("preview: %d columns, %d rows, read with %s; want 2 columns, 3 rows, usecols=range(2)", len(pv.Columns), pv.Rows, pv.Read)
	}
}
