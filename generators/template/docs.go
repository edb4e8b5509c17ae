package template

import (
	"archive/zip"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"

	"github.com/ledongthuc/pdf"
)

// pdfPages returns the text of each page of PDF file i.
func (c *bctx) pdfPages(i int) []string {
	f, r, err := pdf.Open(c.files[i].Path)
	if err != nil {
		panic(fmt.Sprintf("pdf %s: %v", c.name(i), err))
	}
	defer f.Close()
	var pages []string
	for p := 1; p <= r.NumPage(); p++ {
		pg := r.Page(p)
		if pg.V.IsNull() {
			pages = append(pages, "")
			continue
		}
		s, err := pg.GetPlainText(nil)
		if err != nil {
			panic(fmt.Sprintf("pdf %s: page %d: %v", c.name(i), p, err))
		}
		pages = append(pages, s)
	}
	return pages
}

var (
	docxPara = regexp.MustCompile(`(?s)<w:p[ >].*?</w:p>`)
	docxText = regexp.MustCompile(`(?s)<w:t(?: [^>]*)?>(.*?)</w:t>`)
)

// docxParagraphs returns the text of each paragraph of DOCX file i.
func (c *bctx) docxParagraphs(i int) []string {
	zr, err := zip.OpenReader(c.files[i].Path)
	if err != nil {
		panic(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name != "word/document.xml" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			panic(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			panic(err)
		}
		var out []string
		for _, p := range docxPara.FindAllString(string(b), -1) {
			var t strings.Builder
			for _, m := range docxText.FindAllStringSubmatch(p, -1) {
				t.WriteString(m[1])
			}
			out = append(out, xmlUnescape(t.String()))
		}
		return out
	}
	panic("no word/document.xml")
}

func xmlUnescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&").Replace(s)
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
