package template

import (
	"archive/zip"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"

	"synth/generators"
)

// pdfPages returns the text of each page of PDF file i.
func (c *bctx) pdfPages(i int) []string { return must(c, i, pdfFile) }

// readPDFPages reads the text of each page of a PDF file.
func readPDFPages(in generators.Input) ([]string, error) {
	f, r, err := pdf.Open(in.Path)
	if err != nil {
		return nil, fmt.Errorf("pdf %s: %v", in.File.Name, err)
	}
	defer f.Close()
	var pages []string
	for p := 1; p <= r.NumPage(); p++ {
		pg := r.Page(p)
		if pg.V.IsNull() {
			pages = append(pages, "")
			continue
		}
		s, ok := layoutText(pg)
		if !ok {
			var err error
			if s, err = pg.GetPlainText(nil); err != nil {
				return nil, fmt.Errorf("pdf %s: page %d: %v", in.File.Name, p, err)
			}
		}
		pages = append(pages, s)
	}
	return pages, nil
}

// docxParagraphs returns the text of each paragraph of DOCX file i as
// python-docx's Document.paragraphs reads it: the paragraphs that are
// children of the body (not those in tables, text boxes or content
// controls), each the text of its runs and of the runs of its hyperlinks.
func (c *bctx) docxParagraphs(i int) []string { return must(c, i, docxFile) }

// readDocxParagraphs reads the paragraphs of a DOCX file (docxParagraphs).
func readDocxParagraphs(in generators.Input) ([]string, error) {
	zr, err := zip.OpenReader(in.Path)
	if err != nil {
		return nil, fmt.Errorf("docx %s: %w", in.File.Name, err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name != "word/document.xml" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("docx %s: %w", in.File.Name, err)
		}
		defer rc.Close()
		ps, err := bodyParagraphs(rc)
		if err != nil {
			return nil, fmt.Errorf("docx %s: %v", in.File.Name, err)
		}
		return ps, nil
	}
	return nil, fmt.Errorf("docx %s: no word/document.xml", in.File.Name)
}

// bodyParagraphs reads a WordprocessingML document.xml: the text of each
// w:p child of w:body, from its w:r/w:t and w:hyperlink/w:r/w:t.
func bodyParagraphs(r io.Reader) ([]string, error) {
	d := xml.NewDecoder(r)
	d.Strict = false
	var path []string // local names from the document element down
	var out []string
	var cur *strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			path = append(path, t.Name.Local)
			if len(path) == 3 && path[1] == "body" && t.Name.Local == "p" {
				cur = &strings.Builder{}
			}
		case xml.EndElement:
			if len(path) == 3 && cur != nil && t.Name.Local == "p" {
				out = append(out, cur.String())
				cur = nil
			}
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
		case xml.CharData:
			if cur == nil || len(path) < 5 {
				continue
			}
			in := path[3:] // below the paragraph
			if slices.Equal(in, []string{"r", "t"}) || slices.Equal(in, []string{"hyperlink", "r", "t"}) {
				cur.Write(t)
			}
		}
	}
}

// layoutText is a page's text from where its glyphs are drawn: a space
// where a gap on a line is wider than a fifth of the font size, a line
// break where the baseline moves. A PDF places words rather than spaces,
// and its text operators may hold none ("Lorem" at x=72, "ipsum" at
// x=118): read by stream order alone the words run together, as pypdf
// and PyMuPDF do not read them. ok is false when the page's content
// cannot be read so, or its fonts give most glyphs no width.
func layoutText(pg pdf.Page) (s string, ok bool) {
	// The pdf package panics on a content stream it cannot parse; the
	// caller then reads the page's plain text instead.
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	text := pg.Content().Text
	unknown := 0
	for _, t := range text {
		if t.W <= 0 {
			unknown++
		}
	}
	if 2*unknown > len(text) {
		return "", false // the fonts give no glyph widths: gaps say nothing
	}
	var b strings.Builder
	var prev *pdf.Text
	for _, t := range text {
		if t.W <= 0 { // a glyph of unknown width: half an em a character
			t.W = t.FontSize / 2 * float64(utf8.RuneCountInString(t.S))
		}
		if prev != nil {
			size := max(t.FontSize, prev.FontSize, 1)
			switch {
			case math.Abs(t.Y-prev.Y) > size/2:
				b.WriteByte('\n')
			case t.X-(prev.X+prev.W) > size/5 && !strings.HasSuffix(prev.S, " ") && !strings.HasPrefix(t.S, " "):
				b.WriteByte(' ')
			}
		}
		b.WriteString(t.S)
		prev = &t
	}
	return b.String(), true
}

var (
	htmlLink  = regexp.MustCompile(`(?is)<a\s[^>]*href\s*=\s*["']([^"']*)["'][^>]*>(.*?)</a>`)
	htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	htmlTag   = regexp.MustCompile(`<[^>]+>`)
	// A comment, and an unclosed one to the end of the page.
	htmlComment = regexp.MustCompile(`(?s)<!--.*?(?:-->|$)`)
)

type link struct{ href, text string }

// htmlLinks returns the <a href> elements of page s as Python's html.parser
// reads them: nothing inside a comment, entities in hrefs and text decoded.
// It serves the task's wording; the proof holds its count to what the
// reference's html.parser printed.
func htmlLinks(s string) []link {
	s = htmlComment.ReplaceAllString(s, "")
	var out []link
	for _, m := range htmlLink.FindAllStringSubmatch(s, -1) {
		text := html.UnescapeString(htmlTag.ReplaceAllString(m[2], ""))
		out = append(out, link{href: html.UnescapeString(m[1]), text: strings.Join(strings.Fields(text), " ")})
	}
	return out
}

// longWords picks up to n distinct words of at least minLen letters from a
// text, in order of appearance.
func longWords(text string, minLen, n int) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words(text) {
		if len(w) >= minLen && !seen[w] {
			seen[w] = true
			out = append(out, w)
			if len(out) == n {
				break
			}
		}
	}
	return out
}
