package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJournalCutsALongTornTail: reopening a journal cuts a torn last line
// from the file, however long, so that a shorter record appended after it
// leaves nothing of it behind.
func TestJournalCutsALongTornTail(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(rec{N: 1}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	torn := `{"n":99,"s":"` + strings.Repeat("torn", 100)
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(torn)
	f.Close()

	j, err = OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(rec{N: 2}); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\"n\":1,\"s\":\"\"}\n{\"n\":2,\"s\":\"\"}\n"; string(b) != want {
		t.Fatalf("journal holds %q, want %q", b, want)
	}
}
