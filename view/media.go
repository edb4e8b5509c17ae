package view

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"synth/schemas"
)

// Limits on what a page holds of one file.
const (
	headBytes    = 4096      // read to tell a file's type
	maxText      = 8 << 10   // the start of a text file
	maxSrcdoc    = 256 << 10 // an HTML artifact shown in its iframe
	maxInlineSVG = 512 << 10 // an SVG shown as a data: URL
)

// Media is an input file or an artifact as a page shows it.
type Media struct {
	Name    string           `json:"name"` // the file's name or workspace path
	Size    int64            `json:"size"`
	SHA256  string           `json:"sha256,omitempty"`
	Kind    string           `json:"kind,omitempty"` // by content: png, csv, html, … (see kindOf)
	Show    string           `json:"show"`
	Src     *Src             `json:"src,omitempty"`  // where the bytes are; nil: not linked
	Data    string           `json:"data,omitempty"` // a data: URL (SVG)
	Table   *Table           `json:"table,omitempty"`
	Text    string           `json:"text,omitempty"`
	HTML    string           `json:"html,omitempty"` // srcdoc of the sandboxed iframe
	Preview *schemas.Preview `json:"preview,omitempty"`
	Note    string           `json:"note,omitempty"` // why it is not shown, or a limit it hit
}

// Src locates a file for a page: Root is an index into the site's roots
// (the inputs, linked by relative path) or -1 for the site itself (a copy);
// Path is slash-separated under it.
type Src struct {
	Root int    `json:"r"`
	Path string `json:"p"`
}

// mediaOf describes the file at rel (slash-separated) under the input root
// in: its kind by content, and what a page shows of it. name is the name the
// rollout or task gave it. A file that cannot be read gives a Media with a
// note, never an error: the page says what is missing.
func (s *site) mediaOf(in *input, rel, name string, size int64, sha string) *Media {
	m := &Media{Name: name, Size: size, SHA256: sha}
	f, err := in.root.Open(rel)
	if err != nil {
		m.Show, m.Note = ShowNone, "not found: "+noteErr(err)
		return m
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		m.Show, m.Note = ShowNone, "not a regular file"
		return m
	}
	m.Size = st.Size()
	head := make([]byte, headBytes)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	m.Kind = kindOf(head, name)
	m.Show = showOf(m.Kind)
	m.Src = &Src{Root: in.index, Path: rel}
	if s.opts.Copy {
		src, err := s.copyMedia(f, m.Kind, sha)
		if err != nil {
			m.Note = "not copied: " + noteErr(err)
		} else {
			m.Src = src
		}
	}
	switch m.Kind {
	case "svg":
		// An SVG is shown only as an image, where it runs nothing; it goes
		// inline because file:// gives a file without .svg no image type.
		if b, err := readAllAt(f, maxInlineSVG); err != nil {
			m.Show, m.Note = ShowNone, noteErr(err)
		} else {
			m.Data = "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(b)
		}
	case "html":
		b, err := readAllAt(f, maxSrcdoc)
		if err != nil {
			m.Show, m.Note = ShowText, noteErr(err)
			m.Text = textStart(head)
		} else {
			m.HTML = string(b)
		}
	case "csv", "tsv", "xlsx":
		t, err := readTable(f, m.Kind, m.Size)
		if err != nil {
			m.Show, m.Note = ShowText, "not read as a table: "+noteErr(err)
			m.Text = textStart(head)
			if m.Kind == "xlsx" {
				m.Show, m.Text = ShowNone, ""
			}
		} else {
			m.Table = t
		}
	case "json", "text":
		m.Text = textStart(head)
		if m.Size > maxText || m.Size > int64(len(head)) {
			if b, err := readAllAt(f, maxText); err == nil {
				m.Text = textStart(b)
			}
		}
		if m.Size > maxText {
			m.Note = fmt.Sprintf("the first %d KiB of %s", maxText>>10, sizeText(m.Size))
		}
	}
	return m
}

// readAllAt reads the whole file from its start, up to limit bytes; a
// larger file is an error.
func readAllAt(f *os.File, limit int64) ([]byte, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return b[:limit], fmt.Errorf("larger than %s: shown as a link", sizeText(limit))
	}
	return b, nil
}

// textStart is the start of b as text, up to maxText; bytes that are not
// UTF-8 show as U+FFFD.
func textStart(b []byte) string {
	if len(b) > maxText {
		b = b[:maxText]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func noteErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
