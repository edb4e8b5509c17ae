package sources

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/sources/tableread/xlstest"
)

// TestXLSTypedAndPreviewed: a legacy workbook is typed xls by content,
// whatever its name, and previewed through tableread: its worksheets, the
// table on the first (title rows skipped, columns right of A) and how
// pandas reads it; a damaged one is an error naming it.
func TestXLSTypedAndPreviewed(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.bin")
	os.WriteFile(p, xlstest.Workbook(
		xlstest.Sheet{Name: "Ventes", Rows: [][]any{{"Rapport 2020"}, {}, {nil, "région", "unités", "prix"}, {nil, "Nord", 3, 1.5}, {nil, "Sud", 4, 2.25}, {nil, "Est", -1, 3.0}}},
		xlstest.Sheet{Name: "Notes", Rows: [][]any{{"a", "b"}, {"x", "y"}}}), 0o644)
	typ, err := DetectFile(p)
	if err != nil || typ != "xls" {
		t.Fatalf("typed %q (%v), want xls", typ, err)
	}
	pv, err := Preview(p, typ)
	if err != nil {
		t.Fatal(err)
	}
	want := `sheet_name="Ventes", skiprows=2, usecols="B:D"`
	if pv.Read != want || pv.Rows != 3 || !slices.Equal(pv.Sheets, []string{"Ventes", "Notes"}) {
		t.Errorf("preview reads %d rows of %q with %s, want 3 rows with %s", pv.Rows, pv.Sheets, pv.Read, want)
	}
	if len(pv.Columns) != 3 || pv.Columns[0].Name != "région" || pv.Columns[1].DType != "int" || pv.Columns[2].DType != "float" {
		t.Errorf("columns %+v", pv.Columns)
	}
	bad := filepath.Join(dir, "bad.xls")
	b, _ := os.ReadFile(p)
	os.WriteFile(bad, b[:len(b)-700], 0o644)
	if _, err := Preview(bad, "xls"); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a truncated workbook: %v, want an error naming it", err)
	}
}
