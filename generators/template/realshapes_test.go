package template

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/checks/checkstest"

	"synth/generators"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// TestRealShapesProve writes files with the shapes real corpora have and
// this project's sample corpus lacks: a PNG whose transparent pixels hide
// black, a paletted PNG with a transparent colour, a 4K photo, an HTML
// page with commented-out links and entities, a PDF whose text layer
// places words without spaces, and a DOCX with a table and a hyperlink.
// Every task the templates write for them must prove: the reference
// passes (its answer is what its code printed), and the empty rollout,
// the mutant and every adversary fail.
func TestRealShapesProve(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	ins := []generators.Input{
		writeImage(t, dir, "alpha.png", alphaPNG(120, 90), "png"),
		writeImage(t, dir, "palette.png", palettePNG(100, 80), "png"),
		writeImage(t, dir, "photo.jpg", photo(3840, 2160), "jpeg"),
		writeImage(t, dir, "bw.png", blackOnClear(96, 96), "png"),
		writeFile(t, dir, "page.html", "html", []byte(commentedHTML)),
		writeFile(t, dir, "spaceless.pdf", "pdf", spacelessPDF(pdfLines)),
		writeFile(t, dir, "tables.docx", "docx", tableDOCX()),
	}
	paths := inputPaths(ins)
	include := []string{"image.contrast", "image.sharpen", "image.brightness", "image.convert", "image.mirrorconcat", "image.caption",
		"html.", "pdf.extract", "pdf.wordcount", "docx."}
	tasks, err := New(Options{Seed: 3, Langs: []string{"en"}, Include: include}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	var large []string
	for _, task := range tasks {
		got[strings.TrimSuffix(strings.TrimPrefix(task.Generator, "template:"), "@1")+" "+task.Files[0].Name] = true
		if task.Files[0].Name == "photo.jpg" {
			large = append(large, task.Generator)
		}
	}
	for _, want := range []string{"image.contrast alpha.png", "image.sharpen palette.png", "image.caption photo.jpg", "image.caption alpha.png",
		"html.links page.html", "html.title page.html", "pdf.extract spaceless.pdf", "pdf.wordcount spaceless.pdf", "docx.paragraphs tables.docx"} {
		if !got[want] {
			t.Errorf("no %s task (got %v)", want, got)
		}
	}
	for _, edit := range []string{"image.contrast", "image.sharpen", "image.brightness"} {
		if got[edit+" bw.png"] {
			t.Errorf("%s task for a black and white image, which no such edit changes", edit)
		}
	}
	// Only the caption is proven on the photo: the other edits of a 4K
	// image prove nothing the small ones do not, at many times the cost.
	var proven []schemas.Task
	for _, task := range tasks {
		if task.Files[0].Name != "photo.jpg" || strings.Contains(task.Generator, "image.caption") {
			proven = append(proven, task)
		}
	}
	v := validateAll(t, proven, paths)
	if len(v.Kept) != len(proven) {
		t.Fatalf("%d of %d tasks hold", len(v.Kept), len(proven))
	}
	// The Go side reads what Python reads: the commented-out link is no
	// link, the table's paragraphs are not the body's.
	for _, task := range tasks {
		switch {
		case strings.Contains(task.Generator, "html.title"):
			if !strings.Contains(task.Reference.Answer, "3 links") || !strings.Contains(task.Reference.Answer, `"Shop & Co"`) {
				t.Errorf("html.title answer %q, want 3 links and the title Shop & Co", task.Reference.Answer)
			}
		case strings.Contains(task.Generator, "docx.paragraphs"):
			if !strings.Contains(task.Reference.Answer, " 3 ") {
				t.Errorf("docx.paragraphs answer %q, want the 3 body paragraphs", task.Reference.Answer)
			}
		}
	}
}

// inputPaths maps each input's file id to its path, as Validate takes it.
func inputPaths(ins []generators.Input) map[string]string {
	paths := map[string]string{}
	for _, in := range ins {
		paths[in.File.ID] = in.Path
	}
	return paths
}

// validateAll validates tasks in the real sandbox and reports every task
// it drops.
func validateAll(t *testing.T, tasks []schemas.Task, paths map[string]string) Validation {
	t.Helper()
	v, err := Validate(context.Background(), checkstest.Backend(t, 0), tasks, paths, 2)
	if err != nil {
		t.Fatal(err)
	}
	for id, why := range v.Why {
		t.Errorf("task %s dropped: %s", id, why)
	}
	return v
}

func writeFile(t *testing.T, dir, name, typ string, body []byte) generators.Input {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, body, 0o444); err != nil {
		t.Fatal(err)
	}
	return generators.Input{File: schemas.File{ID: "id-" + name, Name: name, Type: typ, Size: int64(len(body))}, Path: p}
}

func writeImage(t *testing.T, dir, name string, img image.Image, typ string) generators.Input {
	t.Helper()
	var buf bytes.Buffer
	var err error
	if typ == "jpeg" {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85})
	} else {
		err = png.Encode(&buf, img)
	}
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, name, typ, buf.Bytes())
}

// alphaPNG is a logo on a transparent background whose hidden colour is
// black: a viewer shows white around it, a bare convert('RGB') black.
func alphaPNG(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			dx, dy := float64(x-w/2)/float64(w/3), float64(y-h/2)/float64(h/3)
			if dx*dx+dy*dy <= 1 {
				img.SetNRGBA(x, y, color.NRGBA{R: uint8(200 - x), G: uint8(40 + y), B: uint8(2 * x), A: 255})
			} else if x > w*3/4 && y < h/4 {
				img.SetNRGBA(x, y, color.NRGBA{R: 20, G: 20, B: 160, A: 128})
			}
		}
	}
	return img
}

// palettePNG is a paletted image whose first colour is transparent (a
// PNG tRNS chunk).
func palettePNG(w, h int) image.Image {
	pal := color.Palette{color.NRGBA{0, 0, 0, 0}, color.NRGBA{220, 30, 30, 255}, color.NRGBA{30, 160, 40, 255}, color.NRGBA{30, 40, 200, 255}}
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for y := range h {
		for x := range w {
			if (x/10+y/10)%3 != 0 {
				img.SetColorIndex(x, y, uint8(1+(x/20+y/15)%3))
			}
		}
	}
	return img
}

// blackOnClear is black strokes on a transparent background: black and
// white as a viewer shows it.
func blackOnClear(w, h int) image.Image {
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.NRGBA{0, 0, 0, 0}, color.NRGBA{0, 0, 0, 255}})
	for y := range h {
		for x := range w {
			if (x+y)%17 < 4 {
				img.SetColorIndex(x, y, 1)
			}
		}
	}
	return img
}

// photo is a large, smooth, noisy picture.
func photo(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			n := uint8(r.IntN(24))
			img.SetRGBA(x, y, color.RGBA{R: uint8(40+150*x/w) + n, G: uint8(60+120*y/h) + n, B: uint8(90+60*(x+y)/(w+h)) + n, A: 255})
		}
	}
	return img
}

const commentedHTML = `<!DOCTYPE html>
<html><head><title>Shop &amp; Co</title></head>
<body>
<!-- retired: <a href="old.html">Old shop</a> -->
<p>Visit <a href="a.html?x=1&amp;y=2">the first page</a>, <a href='b.html'>the <b>second</b> one</a>
and <a href="c.html">a third</a>.</p>
<!-- <a href="draft.html">draft</a> -->
</body></html>
`

var pdfLines = [][]string{
	{"Consectetur", "adipiscing", "elementum", "vestibulum"},
	{"Pellentesque", "habitant", "consectetur", "tristique"},
	{"Vestibulum", "elementum", "adipiscing", "senectus"},
}

// spacelessPDF is a one-page PDF whose words are each placed by its own
// text operator, with no space characters: readers differ on where the
// spaces go.
func spacelessPDF(lines [][]string) []byte {
	var content bytes.Buffer
	content.WriteString("BT /F1 14 Tf 72 720 Td\n")
	for i, words := range lines {
		if i > 0 {
			fmt.Fprintf(&content, "%d -24 Td\n", -110*(len(lines[i-1])-1))
		}
		for j, w := range words {
			if j > 0 {
				content.WriteString("110 0 Td\n")
			}
			fmt.Fprintf(&content, "(%s) Tj\n", w)
		}
	}
	content.WriteString("ET\n")
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", content.Len(), content.String()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /LastChar 126 /Widths [" + strings.Repeat("556 ", 95) + "] >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// tableDOCX is a Word document with three body paragraphs (one holding a
// hyperlink), an empty one, and a table whose cells hold paragraphs of
// their own: python-docx's Document.paragraphs counts the body's alone.
func tableDOCX() []byte {
	const w = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	cell := func(s string) string { return "<w:tc><w:p><w:r><w:t>" + s + "</w:t></w:r></w:p></w:tc>" }
	doc := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ` + w + `><w:body>
<w:p><w:r><w:t>Quarterly measurements &amp; observations</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">The laboratory recorded </w:t></w:r><w:hyperlink r:id="rId9"><w:r><w:t>temperatures</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> throughout.</w:t></w:r></w:p>
<w:p/>
<w:tbl><w:tr>` + cell("Instrument") + cell("Calibration") + `</w:tr><w:tr>` + cell("Thermometer") + cell("Barometer") + `</w:tr></w:tbl>
<w:p><w:r><w:t>Conclusions regarding instrumentation follow.</w:t></w:r></w:p>
<w:sectPr/></w:body></w:document>`
	files := []struct{ name, body string }{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`},
		{"word/_rels/document.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org/" TargetMode="External"/></Relationships>`},
		{"word/document.xml", doc},
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

// TestTransparentInputEdits: an edit of a PNG whose transparent pixels
// hide black passes whether the output keeps the transparency (a viewer's
// white) or drops it as PIL's convert('L') and OpenCV's imread do (the
// hidden black shows); the inverted grayscale fails either way.
func TestTransparentInputEdits(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeImage(t, t.TempDir(), "logo.png", alphaPNG(120, 90), "png")}
	edit := "from PIL import Image, ImageOps\nimport glob, os\nsrc = Image.open(glob.glob('data/*.png')[0])\nos.makedirs(os.path.dirname(OUT), exist_ok=True)\n"
	judge(t, ins, "image.grayscale",
		[]solution{
			{name: "inverted, alpha dropped", own: true, steps: []string{edit + "ImageOps.invert(src.convert('L')).save(OUT)"}},
			{name: "inverted, over white", own: true, steps: []string{edit + "bg = Image.new('RGBA', src.size, 'white')\nImageOps.invert(Image.alpha_composite(bg, src.convert('RGBA')).convert('L')).save(OUT)"}},
		},
		[]solution{
			{name: "PIL convert('L'), alpha dropped", own: true, steps: []string{edit + "src.convert('L').save(OUT)"}},
			{name: "OpenCV", own: true, steps: []string{"import cv2, glob, os\nos.makedirs(os.path.dirname(OUT), exist_ok=True)\ncv2.imwrite(OUT, cv2.cvtColor(cv2.imread(glob.glob('data/*.png')[0]), cv2.COLOR_BGR2GRAY))"}},
			{name: "over white", own: true, steps: []string{edit + "bg = Image.new('RGBA', src.size, 'white')\nImage.alpha_composite(bg, src.convert('RGBA')).convert('L').save(OUT)"}},
		})
}
