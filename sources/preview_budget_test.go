package sources

import (
	"archive/zip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBombXLSX writes a small workbook whose one sheet unpacks to rows
// rows of repetitive XML.
func writeBombXLSX(t *testing.T, rows int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bomb.xlsx")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	parts := map[string]string{
		"[Content_Types].xml":        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
		"_rels/.rels":                `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":            `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
	}
	for name, body := range parts {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	w, _ := zw.Create("xl/worksheets/sheet1.xml")
	w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row><c t="inlineStr"><is><t>a</t></is></c></row>`))
	row := []byte(strings.Repeat(`<row><c><v>1</v></c></row>`, 1000))
	for i := 0; i < rows/1000; i++ {
		w.Write(row)
	}
	w.Write([]byte(`</sheetData></worksheet>`))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// TestPreviewBudgets: a workbook that unpacks far past its size, and a table
// past the row budget, are refused with ErrPreviewBudget, cheaply.
func TestPreviewBudgets(t *testing.T) {
	bomb := writeBombXLSX(t, 3_000_000)
	if st, _ := os.Stat(bomb); st.Size() > 2<<20 {
		t.Fatalf("the bomb is %d bytes, meant to be small", st.Size())
	}
	_, err := Preview(bomb, "xlsx")
	if !errors.Is(err, ErrPreviewBudget) || !strings.Contains(err.Error(), "decompression bomb") {
		t.Fatalf("xlsx bomb: %v", err)
	}

	csvPath := filepath.Join(t.TempDir(), "long.csv")
	body := "n\n" + strings.Repeat("1\n", PreviewMaxRows+10)
	os.WriteFile(csvPath, []byte(body), 0o644)
	if _, err := Preview(csvPath, "csv"); !errors.Is(err, ErrPreviewBudget) || !strings.Contains(err.Error(), "rows") {
		t.Fatalf("long csv: %v", err)
	}
	short := filepath.Join(t.TempDir(), "short.csv")
	os.WriteFile(short, []byte("n\n"+strings.Repeat("1\n", 1000)), 0o644)
	if p, err := Preview(short, "csv"); err != nil || p.Rows != 1000 {
		t.Fatalf("short csv: %+v %v", p, err)
	}
}
