package template

import (
	"fmt"
	"log/slog"
	"strings"
)

// minRows is the fewest data rows a table needs for table templates.
const minRows = 5

// usable says why file 0 of c cannot be read as its type, or is too small
// for any template ("" when it can), so templates that never open it (they
// only name it) do not write tasks for a broken file. A broken file is
// logged once.
func usable(c *bctx) (why string) {
	defer func() {
		if r := recover(); r != nil {
			why = fmt.Sprint(r)
			slog.Warn("file skipped: cannot read it as its type", "file", c.name(0), "type", c.typ(0), "err", why)
		}
	}()
	switch c.typ(0) {
	case "csv", "tsv", "xlsx", "json", "parquet":
		t := c.table(0)
		if len(t.rows) < minRows || len(t.header) < 2 {
			panic(fmt.Sprintf("%d rows and %d columns is too small", len(t.rows), len(t.header)))
		}
		for _, h := range t.header {
			if strings.Contains(strings.ToLower(h), "{out") {
				panic(fmt.Sprintf("column name %q clashes with the output placeholder", h))
			}
		}
	case "png", "jpeg", "gif", "webp", "bmp":
		if w, h := c.imageSize(0); w < 8 || h < 8 {
			panic(fmt.Sprintf("%dx%d is too small", w, h))
		}
		if c.typ(0) == "gif" {
			c.gifFrames(0)
		}
	case "wav":
		if c.wav(0).seconds < 0.5 {
			panic("shorter than half a second")
		}
	case "mp3":
		c.mp3Seconds(0)
	case "pdf":
		if len(c.pdfPages(0)) == 0 {
			panic("no pages")
		}
	case "docx":
		c.docxParagraphs(0)
	case "txt", "md", "html":
		if len(strings.Fields(c.text(0))) < 5 {
			panic("fewer than five words")
		}
	}
	return ""
}
