package template

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"synth/generators"
	"synth/sources/tableread"
)

// minRows is the fewest data rows a table needs for table templates;
// minSmallRows the fewest for the templates that only carry a table over
// (smallTableTemplates): a workbook of three rows converts to CSV as well
// as one of three hundred.
const (
	minRows      = 5
	minSmallRows = 2
)

// smallTableTemplates read tables of minSmallRows rows or more: they
// convert, publish or measure the table as a whole, and ask nothing a
// handful of rows cannot answer.
var smallTableTemplates = map[string]bool{"table.convert": true, "web.datatable": true, "table.shape": true, "xlsx.sheets": true}

// tooSmall is the error of a table too small for the table templates.
type tooSmall struct{ rows, cols int }

func (e *tooSmall) Error() string {
	return fmt.Sprintf("%d rows and %d columns is too small", e.rows, e.cols)
}

// small reports a table too small for the table templates but not for
// smallTableTemplates.
func (e *tooSmall) small() bool { return e.rows >= minSmallRows && e.cols >= 2 }

// minAudioSeconds is the shortest audio the templates read: a spoken digit
// (a quarter of a second) is a recording to time and convert; the
// templates that cut or mix audio ask for a second or more themselves.
const minAudioSeconds = 0.2

// parsed holds what one Generate call has read, by what was read and file
// id, so a file is read once however many templates and pairs use it.
type parsed struct {
	loads map[string]loaded
}

// loaded is what a load found in a file, or why it could not.
type loaded struct {
	v   any
	err error
}

func newParsed() *parsed { return &parsed{loads: map[string]loaded{}} }

// forget lets go of what was read of file id as each of kinds.
func (p *parsed) forget(id string, kinds ...string) {
	for _, k := range kinds {
		delete(p.loads, k+"\x00"+id)
	}
}

// A reading is one way to read a file (as a table, as text, its WAV
// header …): kind names it among what a Generate keeps of each file.
type reading[T any] struct {
	kind string
	read func(generators.Input) (T, error)
}

// The readings of the templates' files.
var (
	tableFile     = reading[*table]{"table", readTableFile}
	textFile      = reading[string]{"text", readText}
	textEncFile   = reading[string]{"textenc", readTextEncoding}
	pdfFile       = reading[[]string]{"pdf", readPDFPages}
	docxFile      = reading[[]string]{"docx", readDocxParagraphs}
	imageSizeFile = reading[size]{"imagesize", readImageSize}
	gifFile       = reading[int]{"gifframes", readGIFFrames}
	wavFile       = reading[wavInfo]{"wav", readWAV}
	mp3File       = reading[float64]{"mp3", readMP3}
	jsonTreeFile  = reading[*tableread.Node]{"jsontree", readJSONTree}
)

// of is what r reads in file i of c, read once per Generate for each kind
// of reading and file.
func (r reading[T]) of(c *bctx, i int) (T, error) {
	key := r.kind + "\x00" + c.files[i].File.ID
	if l, ok := c.cache.loads[key]; ok {
		return l.v.(T), l.err
	}
	v, err := r.read(c.files[i])
	c.cache.loads[key] = loaded{v: v, err: err}
	return v, err
}

// must returns what r reads in file i of c, for the builders, which read
// their files without an error to handle. Generate reads every file as its
// type (usable) before any template sees it, and keeps what it read while
// templates can ask for it, so a reading that fails here is a template
// reading a file as a type it does not declare in FileTypes: a programming
// error, and a panic.
func must[T any](c *bctx, i int, r reading[T]) T {
	v, err := r.of(c, i)
	if err != nil {
		panic(fmt.Sprintf("template read %s as a type it does not declare: %v", c.name(i), err))
	}
	return v
}

// tableUsable says why file i cannot be read as a table, or is too small
// for the table templates (nil when it can).
func tableUsable(c *bctx, i int) error {
	t, err := tableFile.of(c, i)
	if err != nil {
		return err
	}
	if len(t.rows) < minRows || len(t.header) < 2 {
		return &tooSmall{len(t.rows), len(t.header)}
	}
	for _, h := range t.header {
		if strings.Contains(strings.ToLower(h), "{out") {
			return fmt.Errorf("column name %q clashes with the output placeholder", h)
		}
	}
	if t.headerless() {
		return fmt.Errorf("the first record (%s) is data, not a header: a file without a header, whose columns no query can name", strings.Join(t.header, ", "))
	}
	return nil
}

// reads reports whether template t reads file i of c: t accepts its type,
// a table file is big enough for the table templates (or for t, one of
// smallTableTemplates), and a json file holds a table big enough for the
// table templates unless t reads the document's tree (jsonTree).
func reads(t *tmpl, c *bctx, i int) bool {
	if !t.accepts(c.typ(i)) {
		return false
	}
	switch {
	case c.typ(i) == "json":
		return t.jsonTree || tableUsable(c, i) == nil
	case slices.Contains(tableTypes, c.typ(i)):
		err := tableUsable(c, i)
		ts, small := err.(*tooSmall)
		return err == nil || small && ts.small() && smallTableTemplates[t.Name]
	}
	return true
}

// readJSONTree reads a json file as its ordered tree (tableread.ParseJSON).
func readJSONTree(in generators.Input) (*tableread.Node, error) {
	b, err := os.ReadFile(in.Path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", in.File.Name, err)
	}
	n, err := tableread.ParseJSON(b)
	if err != nil {
		return nil, fmt.Errorf("read %s as JSON: %w", in.File.Name, err)
	}
	return n, nil
}

// usable says why file 0 of c cannot be read as its type, or is too small
// for any template (nil when it can), so templates that never open it
// (they only name it) do not write tasks for a broken file. It reads what
// the templates over the type read, so they find it read.
func usable(c *bctx) (err error) {
	// A reader that panics on hostile bytes (a bug of a parser, ours or a
	// library's) makes the file unusable rather than stop the stage.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("read %s: panic: %v", c.name(0), r)
		}
	}()
	switch c.typ(0) {
	case "csv", "tsv", "xlsx", "xls", "jsonl", "parquet":
		if err := tableUsable(c, 0); err != nil {
			if ts, ok := err.(*tooSmall); ok && ts.small() {
				return nil // smallTableTemplates read it (reads)
			}
			return err
		}
	case "json":
		// A document without a table is still one to ask about its
		// structure; tableUsable decides what the table templates see.
		if _, err := jsonTreeFile.of(c, 0); err != nil {
			return err
		}
	case "png", "jpeg", "gif", "webp", "bmp":
		s, err := imageSizeFile.of(c, 0)
		if err != nil {
			return err
		}
		if s.w < 8 || s.h < 8 {
			return fmt.Errorf("%dx%d is too small", s.w, s.h)
		}
		if c.typ(0) == "gif" {
			if _, err := gifFile.of(c, 0); err != nil {
				return err
			}
		}
	case "wav":
		w, err := wavFile.of(c, 0)
		if err != nil {
			return err
		}
		if w.seconds < minAudioSeconds {
			return fmt.Errorf("shorter than %v s", minAudioSeconds)
		}
	case "mp3":
		if _, err := mp3File.of(c, 0); err != nil {
			return err
		}
	case "pdf":
		pages, err := pdfFile.of(c, 0)
		if err != nil {
			return err
		}
		if len(pages) == 0 {
			return fmt.Errorf("no pages")
		}
	case "docx":
		if _, err := docxFile.of(c, 0); err != nil {
			return err
		}
	case "txt", "md", "html":
		s, err := textFile.of(c, 0)
		if err != nil {
			return err
		}
		if len(strings.Fields(s)) < 5 {
			return fmt.Errorf("fewer than five words")
		}
	}
	return nil
}

// smallNames are smallTableTemplates' names, sorted.
func smallNames() []string {
	names := make([]string, 0, len(smallTableTemplates))
	for n := range smallTableTemplates {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// smallTable is the size of file 0 of c, a table file (not json) too
// small for the table templates but read by smallTableTemplates.
func smallTable(c *bctx) (*tooSmall, bool) {
	if c.typ(0) == "json" || !slices.Contains(tableTypes, c.typ(0)) {
		return nil, false
	}
	ts, ok := tableUsable(c, 0).(*tooSmall)
	return ts, ok && ts.small()
}
