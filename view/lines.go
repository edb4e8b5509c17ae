package view

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// maxLine bounds one JSONL record; a longer line is an error naming it.
const maxLine = 256 << 20

// eachLine calls fn with each non-blank line of the JSONL file at path and
// its 1-based number and byte offset. A torn last line (no newline, not
// valid JSON), as an interrupted run leaves, is skipped.
func eachLine(path string, fn func(line []byte, num int, off int64) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var off int64
	for num := 1; ; num++ {
		line, err := readLine(r)
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("%s:%d: %w", path, num, err)
		}
		torn := errors.Is(err, io.EOF)
		start := off
		off += int64(len(line))
		if torn && !json.Valid(bytes.TrimSpace(line)) {
			return nil
		}
		if b := bytes.TrimSpace(line); len(b) > 0 {
			if err := fn(b, num, start); err != nil {
				return err
			}
		}
		if torn {
			return nil
		}
	}
}

// readLine reads one line with its newline (none at the end of the file,
// with io.EOF).
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		part, err := r.ReadSlice('\n')
		buf = append(buf, part...)
		if len(buf) > maxLine {
			return nil, fmt.Errorf("a line longer than %s", sizeText(maxLine))
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, err
	}
}

// lineIndex finds JSONL records by key without holding them: it keeps each
// key's byte offset and reads the record again when asked.
type lineIndex struct {
	path string
	f    *os.File
	offs map[string]int64
}

// indexLines indexes the JSONL file at path by key(line); records without
// a key are left out, and a repeated key keeps its last record (journals
// append corrections).
func indexLines(path string, key func([]byte) string) (*lineIndex, error) {
	ix := &lineIndex{path: path, offs: map[string]int64{}}
	err := eachLine(path, func(line []byte, _ int, off int64) error {
		if k := key(line); k != "" {
			ix.offs[k] = off
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if ix.f, err = os.Open(path); err != nil {
		return nil, err
	}
	return ix, nil
}

// get decodes the record of key into v; false when there is none.
func (ix *lineIndex) get(key string, v any) (bool, error) {
	if ix == nil {
		return false, nil
	}
	off, ok := ix.offs[key]
	if !ok {
		return false, nil
	}
	r := bufio.NewReader(io.NewSectionReader(ix.f, off, 1<<62))
	line, err := readLine(r)
	if err != nil && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("%s: %w", ix.path, err)
	}
	if err := json.Unmarshal(line, v); err != nil {
		return false, fmt.Errorf("%s: record %q: %w", ix.path, key, err)
	}
	return true, nil
}

func (ix *lineIndex) close() {
	if ix != nil && ix.f != nil {
		ix.f.Close()
	}
}

// idKey is the "id" field of a JSON record.
func idKey(line []byte) string {
	var r struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(line, &r) != nil {
		return ""
	}
	return r.ID
}
