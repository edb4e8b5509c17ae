package rundir

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// traj is a journal record with an id, as a trajectory has.
type traj struct {
	ID     string `json:"id"`
	Answer string `json:"final_answer"`
}

func TestJournalOffsetsFindRecords(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	var offs []int64
	for i := range 5 {
		offs = append(offs, j.Offset())
		if err := j.Append(rec{N: i, S: fmt.Sprint(i * 1000)}); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	// A torn line is cut on reopening: offsets go on from the last whole record.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"n": 99, "s": "tor`)
	f.Close()
	if j, err = OpenJournal(p); err != nil {
		t.Fatal(err)
	}
	offs = append(offs, j.Offset())
	if err := j.Append(rec{N: 5, S: "5000"}); err != nil {
		t.Fatal(err)
	}
	j.Close()

	var read []int64
	err = ReadJournalAt(p, func(off int64, r rec) error {
		if r.N != len(read) {
			t.Errorf("record %d at offset %d reads as %d", len(read), off, r.N)
		}
		read = append(read, off)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(read, offs) {
		t.Fatalf("ReadJournalAt's offsets %v, Offset gave %v", read, offs)
	}
	rf, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	for i := len(offs) - 1; i >= 0; i-- { // in any order, one reader reused
		r, err := ReadRecordAt[rec](rf, offs[i], nil)
		if err != nil || r.N != i || r.S != fmt.Sprint(i*1000) {
			t.Fatalf("record at offset %d: %+v, %v; want number %d", offs[i], r, err, i)
		}
	}
}

// TestJournalIndexTakesTheLastRecordOfAnID: an id journaled twice reads
// back as its later record, as the map of whole trajectories had it.
func TestJournalIndexTakesTheLastRecordOfAnID(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []traj{
		{ID: "a", Answer: "first"}, {ID: "b", Answer: "only"}, {ID: "a", Answer: "second"},
	} {
		if err := j.Append(tr); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	x, err := IndexByID[traj](p)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if x.Len() != 2 {
		t.Fatalf("%d ids indexed, want 2", x.Len())
	}
	for id, want := range map[string]string{"a": "second", "b": "only"} {
		tr, err := x.Load(id)
		if err != nil || tr == nil || tr.Answer != want {
			t.Fatalf("load(%s) = %+v, %v; want answer %q", id, tr, err, want)
		}
	}
	if tr, err := x.Load("c"); tr != nil || err != nil {
		t.Fatalf("load of an id not journaled = %+v, %v", tr, err)
	}
	var got []string
	for _, r := range x.Refs() {
		tr, _ := r.Load()
		got = append(got, tr.Answer)
	}
	if want := []string{"only", "second"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("refs in file order read %v, want %v", got, want)
	}
}

// TestJournalIndexMergesWhatItAdds: past the merge threshold, what add
// notes moves from the map into the sorted array; every id still finds
// its latest offset, len counts ids once, and refs lists each id's latest
// record once, in file order.
func TestJournalIndexMergesWhatItAdds(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := OpenJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3000 { // a journal read back, then added to
		if err := j.Append(traj{ID: fmt.Sprintf("old%d", i%2000)}); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	x, err := IndexByID[traj](p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	ReadJournalAt(p, func(off int64, tr traj) error { want[tr.ID] = off; return nil })
	var off int64 = 1 << 40
	for i := range 20000 { // several merges; a quarter replace an earlier id
		id := fmt.Sprintf("new%d", i)
		if i%4 == 3 {
			id = fmt.Sprintf("new%d", i/2)
		}
		if i%1000 == 0 {
			id = fmt.Sprintf("old%d", i/1000)
		}
		off++
		x.Add(id, off)
		want[id] = off
	}
	if len(x.sorted) == 0 || len(x.recent) > len(x.sorted)/4+4096 {
		t.Fatalf("%d entries sorted, %d waiting: the map was not merged", len(x.sorted), len(x.recent))
	}
	if x.Len() != len(want) {
		t.Errorf("len %d, want %d ids", x.Len(), len(want))
	}
	for id, o := range want {
		if r, ok := x.Ref(id); !ok || r.off != o {
			t.Fatalf("ref(%s) = %d, %v; want offset %d", id, r.off, ok, o)
		}
	}
	if x.Has("never") {
		t.Error("an id never added is found")
	}
	refs := x.Refs()
	if len(refs) != len(want) || !slices.IsSortedFunc(refs, func(a, b Ref[traj]) int { return cmp.Compare(a.off, b.off) }) {
		t.Errorf("refs: %d, sorted %v; want %d in file order", len(refs), slices.IsSortedFunc(refs, func(a, b Ref[traj]) int { return cmp.Compare(a.off, b.off) }), len(want))
	}
}

// TestIndexAddedKeysLoad: an index a reader fills itself (Add, by any key)
// loads each key's latest record, including a last record without its
// newline, and reads a record again from an offset it kept (At).
func TestIndexAddedKeysLoad(t *testing.T) {
	p := filepath.Join(t.TempDir(), "results.jsonl")
	lines := []string{`{"id":"a","final_answer":"1"}`, `{"id":"b","final_answer":"2"}`, `{"id":"a","final_answer":"3"}`}
	os.WriteFile(p, []byte(lines[0]+"\n"+lines[1]+"\n"+lines[2]), 0o644) // no newline at the end
	x := NewIndex[traj](p)
	defer x.Close()
	var off int64
	for i, l := range lines {
		x.Add(fmt.Sprintf("key-%c", l[7]), off)
		if i == 1 {
			if r := x.At(off); r.Offset() != off {
				t.Fatalf("At(%d) is at %d", off, r.Offset())
			}
		}
		off += int64(len(l)) + 1
	}
	for key, want := range map[string]string{"key-a": "3", "key-b": "2"} {
		tr, err := x.Load(key)
		if err != nil || tr == nil || tr.Answer != want {
			t.Fatalf("Load(%s) = %+v, %v; want answer %s", key, tr, err, want)
		}
	}
	if tr, err := x.At(int64(len(lines[0]) + 1)).Load(); err != nil || tr.ID != "b" {
		t.Fatalf("At the second line: %+v, %v", tr, err)
	}
	if x.Len() != 2 || x.Has("a") || x.Path() != p {
		t.Fatalf("len %d, has a %v, path %s", x.Len(), x.Has("a"), x.Path())
	}
}

// TestIndexLoadFailsOnAChangedJournal: a record that no longer decodes
// where the index found it fails its Load, saying the journal changed.
func TestIndexLoadFailsOnAChangedJournal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j.jsonl")
	os.WriteFile(p, []byte(`{"id":"a"}`+"\n"+`{"id":"b"}`+"\n"), 0o644)
	x, err := IndexByID[traj](p)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	os.WriteFile(p, []byte(`{"id":"a"}`+"\n"), 0o644)
	if tr, err := x.Load("b"); err == nil || !strings.Contains(err.Error(), "the journal changed under the run") {
		t.Fatalf("Load of a cut record = %+v, %v", tr, err)
	}
}
