package sample

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// paragraphs writes n paragraphs of sentences from the word lists, with the
// facts placed one per paragraph.
func paragraphs(r *rand.Rand, n int, facts []string, subj, verb, obj, tail []string) []string {
	var out []string
	for p := 0; p < n; p++ {
		var b strings.Builder
		k := 3 + r.IntN(3)
		for s := 0; s < k; s++ {
			if s == 1 && p < len(facts) {
				b.WriteString(facts[p] + " ")
			}
			fmt.Fprintf(&b, "%s %s %s %s. ", pick(r, subj), pick(r, verb), pick(r, obj), pick(r, tail))
		}
		out = append(out, strings.TrimSpace(b.String()))
	}
	return out
}

var (
	libSubj = []string{"The library", "The reading room", "The volunteer team", "The children's section", "The board", "The archive", "The new catalogue"}
	libVerb = []string{"welcomed", "supported", "expanded", "digitized", "organized", "hosted", "served"}
	libObj  = []string{"local students", "rare manuscripts", "weekly workshops", "reading groups", "thousands of readers", "community events", "the public computers"}
	libTail = []string{"during the spring", "across the year", "with generous donations", "despite the renovation", "every weekend", "in the evenings", "for the first time"}
)

// makeMarkdown writes a project README with headings, lists and a table.
func makeMarkdown(r *rand.Rand) ([]byte, error) {
	var b strings.Builder
	b.WriteString("# Riverside Library Volunteer Handbook\n\n")
	ps := paragraphs(r, 4, []string{"The library opened its doors in 1923.", "Volunteers logged 4820 hours last year."}, libSubj, libVerb, libObj, libTail)
	sections := []string{"Getting Started", "Daily Tasks", "Events", "Contacts"}
	for i, s := range sections {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", s, ps[i])
		if i == 1 {
			for _, t := range []string{"Shelve returned books", "Check the reading room", "Help visitors find titles", "Update the events board"} {
				fmt.Fprintf(&b, "- %s\n", t)
			}
			b.WriteString("\n")
		}
		if i == 2 {
			b.WriteString("| Event | Day | Attendees |\n|---|---|---|\n")
			for _, e := range []string{"Story Hour", "Chess Club", "Book Swap", "Coding Class"} {
				fmt.Fprintf(&b, "| %s | %s | %d |\n", e, pick(r, []string{"Monday", "Wednesday", "Friday", "Saturday"}), 8+r.IntN(40))
			}
			b.WriteString("\n")
		}
	}
	return []byte(b.String()), nil
}

// makeHTML writes a small web page: a title, headings, links, a list and
// a table.
func makeHTML(r *rand.Rand) ([]byte, error) {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>City Parks Guide</title>\n</head>\n<body>\n<h1>City Parks Guide</h1>\n")
	parks := []string{"Maple Grove", "Harbor Green", "Cedar Hill", "Lakeside Commons", "Old Mill Park"}
	b.WriteString("<p>Our city has many green spaces. Here are the most visited parks this year.</p>\n<ul>\n")
	for i, p := range parks {
		fmt.Fprintf(&b, "<li><a href=\"https://parks.example.org/%d\">%s</a></li>\n", i+1, p)
	}
	b.WriteString("</ul>\n<h2>Visitors</h2>\n<table>\n<tr><th>Park</th><th>Area (ha)</th><th>Visitors</th></tr>\n")
	for _, p := range parks {
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%d</td><td>%d</td></tr>\n", p, 3+r.IntN(60), 10000+r.IntN(90000))
	}
	b.WriteString("</table>\n<h2>Contact</h2>\n<p>Write to <a href=\"mailto:parks@example.org\">parks@example.org</a>.</p>\n</body>\n</html>\n")
	return []byte(b.String()), nil
}

// pdfPages lays out text into pages of lines for makePDF.
func reportPages(r *rand.Rand) [][]string {
	facts := []string{
		"The library lent 58214 books in 2023.", "Membership grew to 12450 readers.",
		"The renovation cost 1.2 million dollars.", "The archive holds 3100 historic maps.",
		"Opening hours were extended to 9 pm on Thursdays.", "Forty volunteers joined the team.",
	}
	ps := paragraphs(r, 9, facts, libSubj, libVerb, libObj, libTail)
	var pages [][]string
	titles := []string{"Annual Report 2023", "Collections and Services", "Community and Outlook"}
	for i, t := range titles {
		lines := []string{t, ""}
		for _, p := range ps[i*3 : i*3+3] {
			lines = append(lines, wrap(p, 88)...)
			lines = append(lines, "")
		}
		pages = append(pages, lines)
	}
	return pages
}

func wrap(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if len(line)+1+len(w) > width && line != "" {
			out = append(out, line)
			line = w
		} else if line == "" {
			line = w
		} else {
			line += " " + w
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// makePDF writes a PDF with real text in Helvetica, one page per section.
func makePDF(r *rand.Rand) ([]byte, error) { return writePDF(reportPages(r)) }

// writePDF writes pages of lines as a PDF; each page's first line is its
// heading.
func writePDF(pages [][]string) ([]byte, error) {
	var objs []string
	// 1 catalog, 2 pages, 3 font, then per page: page object and contents.
	kids := []string{}
	for i := range pages {
		kids = append(kids, fmt.Sprintf("%d 0 R", 4+2*i))
	}
	objs = append(objs, "<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	for i, lines := range pages {
		var c strings.Builder
		c.WriteString("BT\n/F1 11 Tf\n14 TL\n56 770 Td\n")
		for j, l := range lines {
			if j == 0 {
				c.WriteString("/F1 18 Tf\n")
			}
			fmt.Fprintf(&c, "(%s) Tj T*\n", pdfEscape(l))
			if j == 0 {
				c.WriteString("/F1 11 Tf\n")
			}
		}
		c.WriteString("ET\n")
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", c.Len(), c.String()))
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
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
	return b.Bytes(), nil
}

func pdfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(s)
}

// makeDOCX writes a Word document: a title and paragraphs of meeting notes.
func makeDOCX(r *rand.Rand) ([]byte, error) {
	facts := []string{"The meeting was held on 14 March 2024.", "The budget for the summer program is 18500 dollars.", "Seven new volunteers were approved."}
	return writeDOCX("Board Meeting Notes", paragraphs(r, 5, facts, libSubj, libVerb, libObj, libTail))
}

// writeDOCX writes a Word document: a title and paragraphs.
func writeDOCX(title string, ps []string) ([]byte, error) {
	var body strings.Builder
	body.WriteString(`<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>` + xmlEscape(title) + `</w:t></w:r></w:p>`)
	for _, p := range ps {
		fmt.Fprintf(&body, `<w:p><w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>`, xmlEscape(p))
	}
	parts := []struct{ name, body string }{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`},
		{"word/_rels/document.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`},
		{"word/styles.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="40"/></w:rPr></w:style></w:styles>`},
		{"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body.String() + `<w:sectPr/></w:body></w:document>`},
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(p.body)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
