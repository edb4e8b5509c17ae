package view

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"synth/rundir"
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

// optionalIndex indexes the JSONL file at path by key(line), or returns
// nil when there is no such file. Lines are read as eachLine reads them,
// so a line that is not JSON, or has no key, is left out rather than
// failing the page; a repeated key keeps its last record (journals append
// corrections).
func optionalIndex[T any](path string, key func([]byte) string) (*rundir.Index[T], error) {
	x := rundir.NewIndex[T](path)
	err := eachLine(path, func(line []byte, _ int, off int64) error {
		if k := key(line); k != "" {
			x.Add(k, off)
		}
		return nil
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("view: %w", err)
	}
	return x, nil
}

// lookup reads key's record back from x; nil when there is none, or no
// index (no such file).
func lookup[T any](x *rundir.Index[T], key string) (*T, error) {
	if x == nil {
		return nil, nil
	}
	return x.Load(key)
}

// closeIndex closes x, if there is one.
func closeIndex[T any](x *rundir.Index[T]) {
	if x != nil {
		x.Close()
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
