package tableread

import (
	"bufio"
	"encoding/csv"
	"io"
	"strings"
)

// RecordReader reads decoded delimited text streamed (a preview counting
// a large file's rows) as Layout l splits it, as the whole-file reading
// does: lone carriage returns end lines, the columns of a table aligned
// with spaces (Sep \s+) split at each run of whitespace, and lines
// starting with # are skipped when l.Comment is set. FieldPos lines count
// the text's lines from 1.
func RecordReader(r io.Reader, l Layout) *csv.Reader {
	br := bufio.NewReader(r)
	var src io.Reader = &crReader{r: br}
	sep := ','
	switch {
	case l.Sep == `\s+`:
		src, sep = &spacedReader{r: bufio.NewReader(src)}, '\t'
	case l.Sep != "":
		sep = []rune(l.Sep)[0]
	}
	cr := csv.NewReader(src)
	cr.Comma = sep
	if l.Comment != "" {
		cr.Comment = '#'
	}
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	return cr
}

// crReader makes each lone carriage return a newline (crLines, streamed).
type crReader struct{ r *bufio.Reader }

func (c *crReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		b, err := c.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if b == '\r' {
			if next, err := c.r.Peek(1); err != nil || next[0] != '\n' {
				b = '\n'
			}
		}
		p[n] = b
		n++
		if c.r.Buffered() == 0 {
			break
		}
	}
	return n, nil
}

// spacedReader rewrites each line of a table aligned with spaces as its
// fields joined by tabs (a blank line stays blank, so lines keep their
// numbers).
type spacedReader struct {
	r    *bufio.Reader
	rest string
}

func (s *spacedReader) Read(p []byte) (int, error) {
	for s.rest == "" {
		line, err := s.r.ReadString('\n')
		if line == "" && err != nil {
			return 0, err
		}
		s.rest = strings.Join(strings.Fields(line), "\t") + "\n"
	}
	n := copy(p, s.rest)
	s.rest = s.rest[n:]
	return n, nil
}
