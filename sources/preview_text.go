package sources

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"strings"

	"golang.org/x/net/html"

	"synth/schemas"
)

// previewChars is how much text a preview keeps.
const previewChars = 2000

// previewText shows the start of a text file, decoded to UTF-8.
func previewText(path string) (*schemas.Preview, error) {
	head, err := readHead(path, HeadSize)
	if err != nil {
		return nil, err
	}
	enc, ok := sniffEncoding(head)
	if !ok {
		return nil, errors.New("not text")
	}
	return &schemas.Preview{Text: clip(decodeHead(head, enc), previewChars), Encoding: enc}, nil
}

// previewJSONLines shows the start of a JSON-lines file and counts its
// lines; when every line is an object, the table they make as well.
func previewJSONLines(path string) (*schemas.Preview, error) {
	p, err := previewText(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			p.Rows++
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	previewJSONTableLines(p, path)
	return p, nil
}

// previewHTML shows the visible text of an HTML page (scripts and styles left out).
func previewHTML(path string) (*schemas.Preview, error) {
	head, err := readHead(path, 1<<20)
	if err != nil {
		return nil, err
	}
	enc, ok := sniffEncoding(head)
	if !ok {
		return nil, errors.New("not text")
	}
	z := html.NewTokenizer(strings.NewReader(decodeHead(head, enc)))
	var b strings.Builder
	skip := 0
	for b.Len() < previewChars*2 {
		switch z.Next() {
		case html.ErrorToken:
			return &schemas.Preview{Text: clip(squeeze(b.String()), previewChars), Encoding: enc}, nil
		case html.StartTagToken:
			if n, _ := z.TagName(); string(n) == "script" || string(n) == "style" {
				skip++
			}
		case html.EndTagToken:
			if n, _ := z.TagName(); (string(n) == "script" || string(n) == "style") && skip > 0 {
				skip--
			}
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
				b.WriteByte('\n')
			}
		}
	}
	return &schemas.Preview{Text: clip(squeeze(b.String()), previewChars), Encoding: enc}, nil
}

// previewDOCX shows the start of a Word document's text, a line per paragraph.
func previewDOCX(path string) (*schemas.Preview, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	for _, e := range zr.File {
		if e.Name != "word/document.xml" {
			continue
		}
		rc, err := e.Open()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		text, err := docxText(io.LimitReader(rc, 64<<20))
		if err != nil {
			return nil, err
		}
		return &schemas.Preview{Text: clip(text, previewChars)}, nil
	}
	return nil, errors.New("no word/document.xml")
}

func docxText(r io.Reader) (string, error) {
	d := xml.NewDecoder(r)
	var b strings.Builder
	inText := false
	for b.Len() < previewChars*2 {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			inText = t.Name.Local == "t"
			if t.Name.Local == "tab" {
				b.WriteByte('\t')
			}
		case xml.EndElement:
			inText = false
			if t.Name.Local == "p" {
				b.WriteByte('\n')
			}
		case xml.CharData:
			if inText {
				b.Write(t)
			}
		}
	}
	return strings.TrimSpace(b.String()), nil
}

func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	m, err := io.ReadFull(f, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return buf[:m], nil
}

// clip cuts s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// squeeze trims each line and drops blank runs.
func squeeze(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
