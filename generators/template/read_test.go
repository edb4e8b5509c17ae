package template

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"synth/generators"
	"synth/schemas"
)

// TestUnreadableFileNamed: a file that cannot be read as its type is
// unusable, and the error says which file and what is wrong with it.
func TestUnreadableFileNamed(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, typ, body, want string }{
		{"bad.xlsx", "xlsx", "not a zip", "read bad.xlsx: "},
		{"bad.json", "json", `{"a": 1`, "read bad.json as JSON: "},
		{"lines.json", "json", "{\"a\": 1}\n{\"a\": 2}\n", "read lines.json as JSON: more than one JSON value"},
		{"bad.parquet", "parquet", "PAR1xxxxPAR1", "read bad.parquet: "},
		{"bad.png", "png", "\x89PNG garbage", "image bad.png: "},
		{"bad.webp", "webp", "RIFF", "image bad.webp: not a WebP file"},
		{"odd.webp", "webp", "RIFF\x00\x00\x00\x00WEBPVP9 " + strings.Repeat("\x00", 20), `image odd.webp: unknown WebP chunk "VP9 "`},
		{"bad.gif", "gif", "GIF89a", "image bad.gif: "},
		{"bad.wav", "wav", "RIFF\x00\x00", "wav bad.wav: not a WAV file"},
		{"nodata.wav", "wav", "RIFF\x00\x00\x00\x00WAVEfmt \x10\x00\x00\x00" + strings.Repeat("\x01", 24), "wav nodata.wav: no data chunk"},
		{"shortfmt.wav", "wav", "RIFF\x00\x00\x00\x00WAVEJUNK\x18\x00\x00\x00" + strings.Repeat("\x00", 24) + "fmt \x06\x00\x00\x00\x01\x00\x01\x00\x44\xac", "wav shortfmt.wav: fmt chunk of 6 bytes"},
		{"bad.mp3", "mp3", "\xff\xfb", "mp3 bad.mp3: no MPEG-1 Layer III frames"},
		{"bad.pdf", "pdf", "%PDF-1.4 nothing", "pdf bad.pdf: "},
		{"bad.docx", "docx", "PK nothing", "docx bad.docx: "},
		{"empty.docx", "docx", emptyZip(t), "docx empty.docx: no word/document.xml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			c := newCtx(1, []generators.Input{{File: schemas.File{ID: tc.name, Name: tc.name, Type: tc.typ}, Path: p}}, nil)
			err := usable(c)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("usable: %v, want an error starting %q", err, tc.want)
			}
		})
	}
}

func emptyZip(t *testing.T) string {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	if _, err := zw.Create("README"); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReadOnce: what usable read is what the templates get, without
// reading the file again; so a builder's read cannot fail once its file
// was found usable (must's panic guards only a template reading a type it
// does not declare).
func TestReadOnce(t *testing.T) {
	ins, _ := corpus(t)
	cache := newParsed()
	types := map[string]bool{}
	for _, in := range ins {
		c := newCtx(1, []generators.Input{in}, cache)
		if err := usable(c); err != nil {
			continue
		}
		if err := os.Remove(in.Path); err != nil {
			t.Fatal(err)
		}
		types[in.File.Type] = true
		switch in.File.Type {
		case "csv", "tsv", "xlsx", "xls", "parquet":
			c.table(0)
		case "json":
			c.jsonTree(0)
			if tableUsable(c, 0) == nil {
				c.table(0)
			}
		case "png", "jpeg", "webp", "bmp":
			c.imageSize(0)
		case "gif":
			c.imageSize(0)
			c.gifFrames(0)
		case "wav":
			c.wav(0)
		case "mp3":
			c.mp3Seconds(0)
		case "pdf":
			c.pdfPages(0)
		case "docx":
			c.docxParagraphs(0)
		case "txt", "md", "html":
			c.text(0)
		}
	}
	for _, typ := range []string{"csv", "xlsx", "png", "gif", "wav", "pdf", "docx", "txt", "html"} {
		if !types[typ] {
			t.Errorf("the corpus has no usable %s file to read", typ)
		}
	}
}

// TestMustGuardsUndeclaredType: a template reading a file as a type it
// does not declare is a programming error, and says so.
func TestMustGuardsUndeclaredType(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(p, []byte("just some words, not a table"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCtx(1, []generators.Input{{File: schemas.File{ID: "a", Name: "a.txt", Type: "txt"}, Path: p}}, nil)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "a.txt as a type it does not declare") {
			t.Fatalf("recovered %v, want the programming error named", r)
		}
	}()
	c.pdfPages(0)
}

// TestBuildRecoversPanic: a builder that panics on an odd file fails with
// an error instead of stopping the stage.
func TestBuildRecoversPanic(t *testing.T) {
	tm := &tmpl{Info: Info{Name: "test.panics"}, build: func(c *bctx) ([]spec, error) {
		var xs []int
		return []spec{{params: fmt.Sprint(xs[len(c.files)])}}, nil
	}}
	specs, err := build(tm, newCtx(1, nil, nil))
	if err == nil || !strings.Contains(err.Error(), "panic: runtime error: index out of range") || specs != nil {
		t.Fatalf("build: %v, %v; want no specs and the panic as an error", specs, err)
	}
}

// TestTemplateErrorLeftOutUnlessStrict: a workbook whose first sheet reads
// but whose second does not gets its table tasks; xlsx.sheets, which reads
// every sheet, fails on it. The failure costs that template's task with a
// warning, or, under Strict, is Generate's error, naming the template, the
// file and the sheet.
func TestTemplateErrorLeftOutUnlessStrict(t *testing.T) {
	p := brokenSecondSheet(t)
	ins := []generators.Input{{File: schemas.File{ID: "book", Name: "book.xlsx", Type: "xlsx"}, Path: p}}
	ctx := context.Background()
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"xlsx.sheets", "table.shape"}}).Generate(ctx, ins)
	if err != nil {
		t.Fatalf("without Strict: %v", err)
	}
	var gens []string
	for _, task := range tasks {
		gens = append(gens, task.Generator)
	}
	if len(gens) != 1 || gens[0] != "template:table.shape@1" {
		t.Fatalf("tasks %v, want table.shape's alone", gens)
	}
	_, err = New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"xlsx.sheets"}, Strict: true}).Generate(ctx, ins)
	if err == nil || !strings.Contains(err.Error(), "template xlsx.sheets: files book.xlsx: read book.xlsx: sheet \"Broken\"") {
		t.Fatalf("with Strict: %v, want xlsx.sheets's error naming the file and sheet", err)
	}
}

// brokenSecondSheet writes a workbook with a good first sheet and a second
// sheet the workbook lists but whose part is missing.
func brokenSecondSheet(t *testing.T) string {
	f := excelize.NewFile()
	for r := 1; r <= 8; r++ {
		f.SetCellValue("Sheet1", fmt.Sprintf("A%d", r), r)
		f.SetCellValue("Sheet1", fmt.Sprintf("B%d", r), r*r)
	}
	if _, err := f.NewSheet("Broken"); err != nil {
		t.Fatal(err)
	}
	f.SetCellValue("Broken", "A1", "x")
	var good bytes.Buffer
	if err := f.Write(&good); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(good.Bytes()), int64(good.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, e := range zr.File {
		if e.Name == "xl/worksheets/sheet2.xml" {
			continue
		}
		w, err := zw.Create(e.Name)
		if err != nil {
			t.Fatal(err)
		}
		rc, err := e.Open()
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(w, rc)
		rc.Close()
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "book.xlsx")
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReaderPanicMakesFileUnusable: a reader that panics on a file (a
// parser's bug on hostile bytes) makes that file unusable, with a reason
// naming it, rather than stop the stage.
func TestReaderPanicMakesFileUnusable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(p, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(r func(string, string) (*table, error)) { tableReader = r }(tableReader)
	tableReader = func(string, string) (*table, error) { panic("index out of range") }
	c := newCtx(1, []generators.Input{{File: schemas.File{ID: "t.csv", Name: "t.csv", Type: "csv"}, Path: p}}, nil)
	if err := usable(c); err == nil || err.Error() != "read t.csv: panic: index out of range" {
		t.Fatalf("usable: %v, want the panic as the file's reason", err)
	}
}
