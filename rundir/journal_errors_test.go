package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestJournalErrorsSurface: what stops a journal from opening or reading
// is an error that names its cause, never a journal that half works or a
// record made up: a missing folder, a FIFO (it cannot be cut to its whole
// lines), a path through a file, a folder read as a journal, a corrupt
// record found by offset, and the caller's own error, which stops the read.
func TestJournalErrorsSurface(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenJournal(filepath.Join(dir, "missing", "j.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a journal in a missing folder: %v, want ErrNotExist", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if j, err := OpenJournal(fifo); err == nil {
		j.Close()
		t.Error("a FIFO opened as a journal")
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("{\"n\":1}\n{\"n\":2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ReadJournal(filepath.Join(file, "j.jsonl"), func(rec) error { return nil }); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("a journal below a file: %v, want ENOTDIR", err)
	}
	if err := ReadJournal(dir, func(rec) error { return nil }); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("a folder read as a journal: %v, want EISDIR", err)
	}
	stop := errors.New("stop here")
	calls := 0
	if err := ReadJournal(file, func(rec) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("a callback that fails: %v after %d calls, want its error after 1", err, calls)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if r, err := ReadRecordAt[rec](f, 8, nil); err != nil || r.N != 2 {
		t.Errorf("the record at offset 8: %+v, %v", r, err)
	}
	if r, err := ReadRecordAt[rec](f, 3, nil); err == nil {
		t.Errorf("an offset inside a record decoded as %+v", r)
	}
}
