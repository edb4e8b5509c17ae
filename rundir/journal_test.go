package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type rec struct {
	N int    `json:"n"`
	S string `json:"s"`
}

func TestJournalSurvivesTornLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := j.Append(rec{N: i, S: strings.Repeat("x", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	// A kill in the middle of a write leaves half a record.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"n":99,"s":"ha`)
	f.Close()

	got, err := ReadAll[rec](p)
	if err != nil || len(got) != 3 || got[2].N != 2 {
		t.Fatalf("read %v, %v; want 3 records", got, err)
	}
	// Reopening cuts the torn tail, so the next record starts on its own line.
	j, err = OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(rec{N: 3})
	j.Close()
	got, err = ReadAll[rec](p)
	if err != nil || len(got) != 4 || got[3].N != 3 {
		t.Fatalf("after reopen: %v, %v", got, err)
	}
}

func TestJournalCorruptMiddleLineNamesIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.jsonl")
	os.WriteFile(p, []byte("{\"n\":1}\nnot json\n{\"n\":2}\n"), 0o644)
	_, err := ReadAll[rec](p)
	if err == nil || !strings.Contains(err.Error(), "j.jsonl:2: corrupt record") {
		t.Fatalf("err = %v", err)
	}
}

func TestReadMissingJournal(t *testing.T) {
	got, err := ReadAll[rec](filepath.Join(t.TempDir(), "none.jsonl"))
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestJournalRecordReachesFileBeforeSync(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.Append(rec{N: 1})
	// A kill -9 now must not lose the record: it is in the file already.
	got, err := ReadAll[rec](p)
	if err != nil || len(got) != 1 {
		t.Fatalf("before Sync the file holds %v, %v; want the record", got, err)
	}
}
