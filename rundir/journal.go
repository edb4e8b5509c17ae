package rundir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Journal is an append-only JSONL file: one record per line, each written
// whole and handed to the OS at once (so a killed process loses nothing it
// appended), and fsynced every SyncEvery records and on Close (so a power
// loss costs at most that many). A torn
// last line (from a kill mid-write) is ignored and overwritten on the next
// open. Journal is not safe for concurrent use: one goroutine owns it.
type Journal struct {
	path      string
	f         *os.File
	w         *bufio.Writer
	pending   int
	size      int64 // where the next record starts
	SyncEvery int
}

// OpenJournal opens path for appending, creating it if needed, and cuts a
// torn last line.
func OpenJournal(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	end, err := wholeLinesEnd(f)
	if err == nil {
		err = f.Truncate(end)
	}
	if err == nil {
		_, err = f.Seek(end, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return &Journal{path: path, f: f, w: bufio.NewWriterSize(f, 256<<10), size: end, SyncEvery: 16}, nil
}

// wholeLinesEnd returns the offset just past the last newline.
func wholeLinesEnd(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return 0, err
	}
	const chunk = 64 << 10
	buf := make([]byte, chunk)
	for end := st.Size(); end > 0; {
		start := max(0, end-chunk)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// Append writes one record.
func (j *Journal) Append(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	b = append(b, '\n')
	if _, err := j.w.Write(b); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	j.size += int64(len(b))
	if j.pending++; j.pending >= j.SyncEvery {
		return j.Sync()
	}
	return nil
}

// Offset is where the next record appended will start: a record's offset,
// read before its Append, finds it again with ReadRecordAt.
func (j *Journal) Offset() int64 { return j.size }

// Sync flushes and fsyncs what was appended.
func (j *Journal) Sync() error {
	j.pending = 0
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	return nil
}

// Close syncs and closes the journal.
func (j *Journal) Close() error {
	err := j.Sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ReadJournal calls fn for each whole record of a journal, in order. A
// missing file has no records; a torn last line is skipped; a corrupt line
// in the middle is an error naming the line.
func ReadJournal[T any](path string, fn func(T) error) error {
	return ReadJournalAt(path, func(_ int64, v T) error { return fn(v) })
}

// ReadJournalAt is ReadJournal that also hands fn the offset each record
// starts at, for ReadRecordAt.
func ReadJournalAt[T any](path string, fn func(off int64, v T) error) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	var off int64
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return nil // a last line without a newline is torn: skip it
		}
		if err != nil {
			return fmt.Errorf("journal %s: %w", path, err)
		}
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("journal %s:%d: corrupt record (%v): move the file away to start that stage over", path, line, err)
		}
		if err := fn(off, v); err != nil {
			return err
		}
		off += int64(len(b))
	}
}

// ReadRecordAt decodes the record that starts at off in a journal file
// open for reading; rd is a reader to reuse (nil: one is made). A record
// at the end of the file without its newline is read if it decodes.
func ReadRecordAt[T any](f *os.File, off int64, rd *bufio.Reader) (T, error) {
	var v T
	sr := io.NewSectionReader(f, off, math.MaxInt64-off)
	if rd == nil {
		rd = bufio.NewReaderSize(sr, 16<<10)
	} else {
		rd.Reset(sr)
	}
	b, err := rd.ReadBytes('\n')
	if err != nil && (!errors.Is(err, io.EOF) || len(b) == 0) { // a last line without its newline decodes if it is whole
		return v, fmt.Errorf("journal %s: record at offset %d: %w", f.Name(), off, err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return v, fmt.Errorf("journal %s: record at offset %d: %w", f.Name(), off, err)
	}
	return v, nil
}

// ReadAll returns every whole record of a journal.
func ReadAll[T any](path string) ([]T, error) {
	var out []T
	err := ReadJournal(path, func(v T) error { out = append(out, v); return nil })
	return out, err
}
