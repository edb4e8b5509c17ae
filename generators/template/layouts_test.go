package template

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"

	"synth/generators"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
	"synth/sources/tableread/xlstest"
)

// layoutRows is the table every messy file below holds: 8 rows, one
// missing score.
func layoutRows(sep, decimal string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "city%sscore%scount\n", sep, sep)
	for i, c := range []string{"Lyon", "Nîmes", "Créteil", "Brest", "Évry", "Niort", "Sète", "Agde"} {
		score := fmt.Sprintf("%d.%d", 10+i, i)
		if i == 3 {
			score = ""
		}
		fmt.Fprintf(&b, "%s%s%s%s%d\n", c, sep, strings.Replace(score, ".", decimal, 1), sep, i*7)
	}
	return b.String()
}

// layoutFiles are tables in the layouts real files come in, written here:
// title rows and a note, ; with decimal commas, tab under # comments, |
// saved as .txt, an R export, cp1252, latin-1, UTF-16 and GBK text, a
// workbook whose table starts at B4 under a title, lines ending in empty
// columns (",,"), old Mac line ends (CR), columns aligned with spaces and
// a spreadsheet pasted as text, its rows' total in a last row.
func layoutFiles(t *testing.T, dir string) []generators.Input {
	enc := func(s string, e interface{ Bytes([]byte) ([]byte, error) }) []byte {
		b, err := e.Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	rExport := "\"city\"\t\"score\"\t\"count\"\n"
	for i, line := range strings.Split(strings.TrimSpace(layoutRows("\t", ".")), "\n")[1:] {
		rExport += fmt.Sprintf("\"%d\"\t%s\n", i+1, line)
	}
	gbk := "城市,得分,数量\n"
	for i, c := range []string{"北京", "上海", "广州", "深圳", "杭州", "南京"} {
		gbk += fmt.Sprintf("%s,%d.5,%d\n", c, 60+i, i)
	}
	return []generators.Input{
		writeFile(t, dir, "titled.csv", "csv", []byte("Scores by city\nPrepared in March\n\n"+layoutRows(",", ".")+"\nSource: the survey office\n")),
		writeFile(t, dir, "semicolon.csv", "csv", []byte(layoutRows(";", ","))),
		writeFile(t, dir, "comments.tsv", "tsv", []byte("# exported by a logger\n# units: points\n"+layoutRows("\t", "."))),
		writeFile(t, dir, "pipes.txt", "csv", []byte(layoutRows("|", "."))),
		writeFile(t, dir, "r_export.txt", "tsv", []byte(rExport)),
		writeFile(t, dir, "cp1252.csv", "csv", enc(layoutRows(",", "."), charmap.Windows1252.NewEncoder())),
		writeFile(t, dir, "latin1.csv", "csv", append(enc(layoutRows(",", "."), charmap.ISO8859_1.NewEncoder()), []byte("Pa\x90s,9.5,3\n")...)),
		writeFile(t, dir, "utf16.csv", "csv", enc(layoutRows(",", "."), unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder())),
		writeFile(t, dir, "gbk.csv", "csv", enc(gbk, simplifiedchinese.GBK.NewEncoder())),
		writeFile(t, dir, "offset.xlsx", "xlsx", offsetXLSX(t)),
		writeFile(t, dir, "offset.xls", "xls", xlstest.Workbook(offsetXLS(nil))),
		writeFile(t, dir, "trailing.csv", "csv", []byte(strings.ReplaceAll(layoutRows(",", "."), "\n", ",,\n"))),
		writeFile(t, dir, "mac.tsv", "tsv", enc(strings.ReplaceAll(layoutRows("\t", "."), "\n", "\r"), charmap.ISO8859_1.NewEncoder())),
		writeFile(t, dir, "totals.csv", "csv", []byte("Scores by city\n\n"+layoutRows(",", ".")+"Total,97.5,196\n")),
		writeFile(t, dir, "aligned.txt", "csv", []byte(strings.ReplaceAll(strings.ReplaceAll(layoutRows("\t", "."), "\t\t", "\tNA\t"), "\t", "      "))),
	}
}

// offsetXLS is the sheet of offsetXLSX as a legacy workbook's (numbers as
// numbers, the missing score an absent cell), merged ranges added.
func offsetXLS(merged []xlstest.Range) xlstest.Sheet {
	rows := [][]any{{"Scores by city"}, {"Prepared in March"}, {}}
	for i, line := range strings.Split(strings.TrimSpace(layoutRows(",", ".")), "\n") {
		row := []any{nil}
		for j, v := range strings.Split(line, ",") {
			var cell any = v
			if f, err := strconv.ParseFloat(v, 64); err == nil && i > 0 && j > 0 {
				cell = f
			} else if v == "" {
				cell = nil
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	rows = append(rows, []any{}, []any{}, []any{}, []any{nil, "Source: the survey office"})
	return xlstest.Sheet{Name: "Scores", Rows: rows, Merged: merged}
}

// offsetXLSX is a workbook whose table starts at B4, under a title and a
// note, with a source line below it.
func offsetXLSX(t *testing.T) []byte {
	f := excelize.NewFile()
	f.SetCellValue("Sheet1", "A1", "Scores by city")
	f.SetCellValue("Sheet1", "A2", "Prepared in March")
	for i, line := range strings.Split(strings.TrimSpace(layoutRows(",", ".")), "\n") {
		var row []any
		for _, v := range strings.Split(line, ",") {
			row = append(row, v)
		}
		f.SetSheetRow("Sheet1", fmt.Sprintf("B%d", 4+i), &row)
	}
	f.SetCellValue("Sheet1", "B14", "Source: the survey office")
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestMessyLayoutsProve: the templates read each messy file as its owner
// meant (8 rows of city, score and count; no title row, note or total row
// as data),
// their reference code states how (encoding=, sep=, skiprows= …), and
// every task proves in the sandbox: the reference, run by pandas with
// those arguments, prints what the task expects.
func TestMessyLayoutsProve(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	ins := layoutFiles(t, dir)
	paths := inputPaths(ins)
	tasks, err := New(Options{Seed: 2, Langs: []string{"en"}, Include: []string{"table.shape", "table.missing"}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	wantArgs := map[string]string{
		"titled.csv": "skiprows=3, nrows=8", "semicolon.csv": `sep=";", decimal=","`, "comments.tsv": "skiprows=2",
		"pipes.txt": `sep="|"`, "r_export.txt": "index_col=0", "cp1252.csv": `encoding="cp1252"`, "latin1.csv": `encoding="latin-1"`,
		"utf16.csv": `encoding="utf-16"`, "gbk.csv": `encoding="gbk"`, "offset.xlsx": `skiprows=3, usecols="B:D", nrows=8`,
		"offset.xls":   `pd.read_excel("./data/offset.xls", sheet_name="Scores", skiprows=3, usecols="B:D", nrows=8)`,
		"trailing.csv": "usecols=range(3)", "totals.csv": "skiprows=2, nrows=8", "mac.tsv": `encoding="cp1252", sep="\t"`, "aligned.txt": `sep="\\s+"`,
	}
	shaped := map[string]bool{}
	for _, task := range tasks {
		name := task.Files[0].Name
		code := task.Reference.Steps[0].Code
		if !strings.Contains(code, wantArgs[name]) {
			t.Errorf("%s: the reference reads it without %s:\n%s", name, wantArgs[name], code)
		}
		if said := strings.Contains(task.Query, "the last row (Total) totals the rows above it and is not part of the table"); said != (name == "totals.csv") {
			t.Errorf("%s: the query says the Total row is left out: %v, want %v: %s", name, said, name == "totals.csv", task.Query)
		}
		if strings.Contains(task.Generator, "table.shape") {
			shaped[name] = true
			rows := "8 rows"
			switch name {
			case "latin1.csv":
				rows = "9 rows"
			case "gbk.csv":
				rows = "6 rows"
			}
			if !strings.Contains(task.Reference.Answer, rows) {
				t.Errorf("%s: answer %q, want %s", name, task.Reference.Answer, rows)
			}
		}
	}
	for name := range wantArgs {
		if !shaped[name] {
			t.Errorf("%s: no table.shape task", name)
		}
	}
	validateAll(t, tasks, paths)
}

// TestAmbiguousLayoutUntasked: a sheet whose header has merged cells gets
// no task, and the report says why.
func TestAmbiguousLayoutUntasked(t *testing.T) {
	f := excelize.NewFile()
	for i, line := range strings.Split(strings.TrimSpace(layoutRows(",", ".")), "\n") {
		var row []any
		for _, v := range strings.Split(line, ",") {
			row = append(row, v)
		}
		f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", 1+i), &row)
	}
	f.MergeCell("Sheet1", "B1", "C1")
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	untaskedBecause(t, writeFile(t, t.TempDir(), "merged.xlsx", "xlsx", b.Bytes()), "merged header cells")
}

// untaskedBecause checks that no task reads in and that the report names
// why with detail.
func untaskedBecause(t *testing.T, in generators.Input, detail string) {
	t.Helper()
	gen := New(Options{Seed: 1, Langs: []string{"en"}})
	tasks, err := gen.Generate(context.Background(), []generators.Input{in})
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if len(task.Files) > 0 {
			t.Errorf("%s reads a sheet with merged header cells", task.Generator)
		}
	}
	un := gen.(generators.Explainer).Untasked()
	if len(un) != 1 || !strings.Contains(un[0].Detail, detail) {
		t.Errorf("untasked %+v, want %q named", un, detail)
	}
}

// TestAmbiguousXLSUntasked: a legacy workbook whose header has merged
// cells gets no task, and the report says why.
func TestAmbiguousXLSUntasked(t *testing.T) {
	untaskedBecause(t, writeFile(t, t.TempDir(), "merged.xls", "xls", xlstest.Workbook(offsetXLS([]xlstest.Range{{R0: 3, C0: 2, R1: 3, C1: 3}}))), "merged header cells C4")
}

// TestSheetsCountEachTable: the sheets task counts each sheet's table as
// pandas reads it with the layout stated (titles above and notes below
// left out), and proves.
func TestSheetsCountEachTable(t *testing.T) {
	python := pyenvtest.Python(t)
	f, err := excelize.OpenReader(bytes.NewReader(offsetXLSX(t)))
	if err != nil {
		t.Fatal(err)
	}
	f.SetSheetName("Sheet1", "Summary")
	f.NewSheet("Raw")
	for i := range 6 {
		row := []any{fmt.Sprintf("k%d", i), i, i * 2}
		if i == 0 {
			row = []any{"key", "a", "b"}
		}
		f.SetSheetRow("Raw", fmt.Sprintf("A%d", i+1), &row)
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	in := writeFile(t, t.TempDir(), "book.xlsx", "xlsx", b.Bytes())
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"xlsx.sheets"}}).Generate(context.Background(), []generators.Input{in})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 {
		t.Fatalf("%d xlsx.sheets tasks, want 1", len(tasks))
	}
	if a := tasks[0].Reference.Answer; !strings.Contains(a, "Summary (8 rows)") || !strings.Contains(a, "Raw (5 rows)") {
		t.Errorf("answer %q, want Summary (8 rows) and Raw (5 rows)", a)
	}
	// The reference prints what the answer says.
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "data"), 0o755)
	os.WriteFile(filepath.Join(dir, "data", "book.xlsx"), b.Bytes(), 0o644)
	cmd := exec.Command(python, "-c", tasks[0].Reference.Steps[0].Code)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Summary 8") || !strings.Contains(string(out), "Raw 5") {
		t.Errorf("the reference prints %q (%v), want Summary 8 and Raw 5", out, err)
	}
	validateAll(t, tasks, inputPaths([]generators.Input{in}))
}

// TestXLSSheetsCountEachTable: the sheets task reads a legacy workbook's
// sheets too, each table as pandas reads it with the layout stated (the
// title rows above the first sheet's table left out), and proves.
func TestXLSSheetsCountEachTable(t *testing.T) {
	pyenvtest.Python(t)
	raw := xlstest.Sheet{Name: "Raw", Rows: [][]any{{"key", "a", "b"}}}
	for i := range 5 {
		raw.Rows = append(raw.Rows, []any{fmt.Sprintf("k%d", i), i, i * 2})
	}
	in := writeFile(t, t.TempDir(), "book.xls", "xls", xlstest.Workbook(offsetXLS(nil), raw))
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"xlsx.sheets"}}).Generate(context.Background(), []generators.Input{in})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 {
		t.Fatalf("%d xlsx.sheets tasks, want 1", len(tasks))
	}
	if a := tasks[0].Reference.Answer; !strings.Contains(a, "Scores (8 rows)") || !strings.Contains(a, "Raw (5 rows)") {
		t.Errorf("answer %q, want Scores (8 rows) and Raw (5 rows)", a)
	}
	validateAll(t, tasks, inputPaths([]generators.Input{in}))
}

// TestSmallTablesConvert: a table of three rows (a workbook's, a CSV's)
// gets only the templates that carry a table over (convert, publish,
// shape), and those prove; one of a single row gets none, and
// tasks.report.md says it is too small; a file whose first record is
// data (no header) gets none either, and the report says so.
func TestSmallTablesConvert(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	ins := []generators.Input{
		writeFile(t, dir, "tiny.csv", "csv", []byte("city,score,count\nLyon,10.5,3\nNîmes,11.5,4\nBrest,9.25,7\n")),
		writeFile(t, dir, "one.csv", "csv", []byte("city,score\nLyon,10.5\n")),
		writeFile(t, dir, "headerless.csv", "csv", []byte("1,null,0,0\n2,0,0,null\n3,null,,\n4,null,0,null\n5,0,0,\n6,0,0,\n7,null,0,null\n8,0,0,0\n")),
	}
	g := New(Options{Seed: 1, Langs: []string{"en"}, PerFile: 8})
	tasks, err := g.Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	made := map[string]bool{}
	var onFiles []schemas.Task
	for _, task := range tasks {
		if len(task.Files) == 0 {
			continue // the tasks that read no file
		}
		onFiles = append(onFiles, task)
		name := strings.TrimSuffix(strings.TrimPrefix(task.Generator, "template:"), "@1")
		if task.Files[0].Name == "one.csv" || task.Files[0].Name == "headerless.csv" || !smallTableTemplates[name] {
			t.Errorf("%s task on %s: a small table gets only %v", name, task.Files[0].Name, smallNames())
		}
		made[name] = true
	}
	if len(made) < 2 {
		t.Errorf("the small table got %v, want conversions", made)
	}
	if v := validateAll(t, onFiles, inputPaths(ins)); len(v.Kept) != len(onFiles) {
		t.Errorf("%d of %d tasks on a small table hold", len(v.Kept), len(onFiles))
	}
	un := g.(generators.Explainer).Untasked()
	if len(un) != 2 || un[0].File.Name != "one.csv" || !strings.Contains(un[0].Detail, "1 rows and 2 columns is too small") ||
		un[1].File.Name != "headerless.csv" || !strings.Contains(un[1].Detail, "is data, not a header") {
		t.Errorf("untasked %+v, want one.csv too small and headerless.csv without a header", un)
	}
}

// TestBooleanColumnsLeftAlone: a column of True and False (pandas reads
// it as bools, which "False" does not equal) is no template's category or
// measure: no filter, group or count of it, in a CSV or a workbook; the
// tasks on the other columns prove.
func TestBooleanColumnsLeftAlone(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("name,profession,age,kids\n")
	for i := range 12 {
		fmt.Fprintf(&b, "P%d,%s,%d,%s\n", i, []string{"actor", "musician", "author"}[i%3], 50+i*3, []string{"True", "False"}[i%2])
	}
	f := excelize.NewFile()
	for i, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var row []any
		for j, v := range strings.Split(line, ",") {
			switch {
			case i > 0 && j == 3:
				row = append(row, v == "True")
			default:
				row = append(row, v)
			}
		}
		f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+1), &row)
	}
	var xb bytes.Buffer
	if err := f.Write(&xb); err != nil {
		t.Fatal(err)
	}
	ins := []generators.Input{writeFile(t, dir, "people.csv", "csv", []byte(b.String())), writeFile(t, dir, "people.xlsx", "xlsx", xb.Bytes())}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.filter", "table.nunique", "table.groupby", "table.topgroup"}, PerFile: 4}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) == 0 {
		t.Fatal("no task on the other columns")
	}
	for _, task := range tasks {
		for _, st := range task.Reference.Steps {
			if strings.Contains(st.Code, `"kids"`) {
				t.Errorf("%s reads the boolean column kids:\n%s", task.Generator, st.Code)
			}
		}
	}
	if v := validateAll(t, tasks, inputPaths(ins)); len(v.Kept) != len(tasks) {
		t.Errorf("%d of %d tasks hold", len(v.Kept), len(tasks))
	}
}

// TestLaterSheetNamed: a workbook whose table is not on its first sheet
// (a cover sheet first) says in every query which sheet the table is on,
// as pandas reads the first by default; the tasks prove.
func TestLaterSheetNamed(t *testing.T) {
	pyenvtest.Python(t)
	var rows [][]any
	rows = append(rows, []any{"city", "score", "count"})
	for i := range 8 {
		rows = append(rows, []any{fmt.Sprintf("C%d", i), 10.5 + float64(i), i * 7})
	}
	book := xlstest.Workbook(xlstest.Sheet{Name: "Cover", Rows: [][]any{{"Annual report"}, {}, {"Prepared by the office"}}}, xlstest.Sheet{Name: "data", Rows: rows})
	ins := []generators.Input{writeFile(t, t.TempDir(), "report.xls", "xls", book)}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.shape", "table.stat"}}).Generate(context.Background(), ins)
	if err != nil || len(tasks) == 0 {
		t.Fatalf("no task: %v", err)
	}
	for _, task := range tasks {
		if !strings.Contains(task.Query, `the table is on the sheet "data"`) {
			t.Errorf("%s: the query does not name the sheet: %s", task.Generator, task.Query)
		}
	}
	if v := validateAll(t, tasks, inputPaths(ins)); len(v.Kept) != len(tasks) {
		t.Errorf("%d of %d tasks hold", len(v.Kept), len(tasks))
	}
}
