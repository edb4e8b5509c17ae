package template

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"synth/generators"
	"synth/pyenv/pyenvtest"
)

// TestSheetShapesProve writes tables shaped like public spreadsheets and
// CSVs: a sheet whose header row stops before its data does and leaves
// names blank, with error cells (#DIV/0!, #N/A) where a formula failed,
// and a CSV written with its index, whose first name is blank. The Go side
// must read them as pandas does (blank names are "Unnamed: i", error cells
// are missing), or the missing-value task expects a count no solver
// prints: every task must prove in the real sandbox.
func TestSheetShapesProve(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	ins := []generators.Input{
		writeFile(t, dir, "contracts.xlsx", "xlsx", contractsXLSX()),
		writeFile(t, dir, "indexed.csv", "csv", []byte(indexedCSV())),
	}
	paths := inputPaths(ins)
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.missing"}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		// 12 rows × 6 columns: Player 1 blank, Unnamed: 1 3 blank and 2
		// errors, Unnamed: 3 all 12 blank, Unnamed: 5 (past the header) 6.
		"contracts.xlsx": "There are 24 missing values, in Player, Unnamed: 1, Unnamed: 3, Unnamed: 5.",
		"indexed.csv":    "There are 3 missing values, in score.",
	}
	if len(tasks) != len(want) {
		t.Fatalf("%d table.missing tasks, want one per file", len(tasks))
	}
	for _, task := range tasks {
		if got := task.Reference.Answer; got != want[task.Files[0].Name] {
			t.Errorf("%s: answer %q, want %q", task.Files[0].Name, got, want[task.Files[0].Name])
		}
	}
	validateAll(t, tasks, paths)
}

// contractsXLSX is a one-sheet workbook: a header of four cells (two blank)
// over rows of six, with error cells.
func contractsXLSX() []byte {
	cell := func(ref, v string) string {
		switch {
		case v == "":
			return ""
		case strings.HasPrefix(v, "#"):
			return fmt.Sprintf(`<c r="%s" t="e"><v>%s</v></c>`, ref, v)
		case strings.Trim(v, "0123456789.") == "":
			return fmt.Sprintf(`<c r="%s"><v>%s</v></c>`, ref, v)
		}
		return fmt.Sprintf(`<c r="%s" t="inlineStr"><is><t>%s</t></is></c>`, ref, v)
	}
	var rows strings.Builder
	row := func(n int, vs ...string) {
		fmt.Fprintf(&rows, `<row r="%d">`, n)
		for i, v := range vs {
			rows.WriteString(cell(fmt.Sprintf("%c%d", 'A'+i, n), v))
		}
		rows.WriteString("</row>")
	}
	row(1, "Player", "", "Salary", "")
	for i := range 12 {
		name, note, extra := fmt.Sprintf("P%d", i), fmt.Sprintf("n%d", i), fmt.Sprintf("%d", i*3)
		switch {
		case i == 4:
			name = ""
		case i%3 == 1:
			note = ""
		case i == 3:
			note = "#DIV/0!"
		case i == 8:
			note = "#N/A"
		}
		if i%2 == 1 {
			extra = ""
		}
		row(i+2, name, note, fmt.Sprintf("%d", 1000+i*7), "", fmt.Sprintf("%d", i), extra)
	}
	files := []struct{ name, body string }{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{"xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`},
		{"xl/worksheets/sheet1.xml", `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + rows.String() + `</sheetData></worksheet>`},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		fw, _ := zw.Create(f.name)
		fw.Write([]byte(f.body))
	}
	zw.Close()
	return buf.Bytes()
}

// indexedCSV is a table written with pandas' index: its first name is
// blank.
func indexedCSV() string {
	return genRows(",city,score", 30, func(i int) string {
		score := fmt.Sprintf("%d", 50+(i*7)%40)
		if i%10 == 3 {
			score = ""
		}
		return fmt.Sprintf("%d,%s,%s", i, []string{"Oslo", "Lima", "Pune"}[i%3], score)
	})
}
