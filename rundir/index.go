package rundir

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"sync"
)

// Index is where a journal's records are, by key (a record's id, or what
// the caller keys it by): the offset each record starts at, not the
// record, nor even its key. An entry is a 128-bit digest of the key and an
// offset, 24 bytes in a sorted array whatever the sizes of the record and
// its key (a trajectory's id alone is 24 bytes, and a Go map would spend
// about 56 bytes an entry); the entries added since the array was last
// merged wait in a small map. Records are read back one at a time (Load,
// Ref.Load). A later record of a key replaces an earlier one, as when the
// whole journal was read into a map. It is safe for concurrent use.
type Index[T any] struct {
	path   string
	mu     sync.Mutex
	sorted []indexEntry    // by key, one entry a key
	recent map[idKey]int64 // added since sorted was last merged; replaces sorted's entry
	n      int             // distinct keys
	f      *os.File        // opened by the first load; closed by Close
	rd     *bufio.Reader
}

type indexEntry struct {
	key idKey
	off int64
}

// idKey is the first 128 bits of a key's SHA-256: two keys of a run that
// share one are as unlikely as a forged SHA-256 collision.
type idKey [2]uint64

func keyOf(id string) idKey {
	sum := sha256.Sum256([]byte(id))
	return idKey{binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])}
}

func compareKeys(a, b idKey) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }

// Ref is one indexed record: where it starts in its journal.
type Ref[T any] struct {
	idx *Index[T]
	off int64
}

// IndexByID reads the "id" of each of a journal's records (ReadJournalAt:
// a torn last line is left out, a corrupt line is an error). A missing
// journal has none.
func IndexByID[T any](path string) (*Index[T], error) {
	x := NewIndex[T](path)
	type idOnly struct {
		ID string `json:"id"`
	}
	var all []indexEntry
	err := ReadJournalAt(path, func(off int64, t idOnly) error {
		all = append(all, indexEntry{keyOf(t.ID), off})
		return nil
	})
	if err != nil {
		return nil, err
	}
	// By key, and of the records of one key the last, which replaces the
	// others.
	slices.SortFunc(all, func(a, b indexEntry) int { return cmp.Or(compareKeys(a.key, b.key), cmp.Compare(b.off, a.off)) })
	x.sorted = slices.Clip(slices.CompactFunc(all, func(a, b indexEntry) bool { return a.key == b.key }))
	x.n = len(x.sorted)
	return x, nil
}

// NewIndex is an empty index of the journal at path, for the caller to
// Add to, or to read records back from where it found them (At).
func NewIndex[T any](path string) *Index[T] {
	return &Index[T]{path: path, recent: map[idKey]int64{}}
}

// Path is the journal's path.
func (x *Index[T]) Path() string { return x.path }

// find is where key's record starts; x.mu is held.
func (x *Index[T]) find(k idKey) (int64, bool) {
	if off, ok := x.recent[k]; ok {
		return off, true
	}
	if i, ok := slices.BinarySearchFunc(x.sorted, k, func(e indexEntry, k idKey) int { return compareKeys(e.key, k) }); ok {
		return x.sorted[i].off, true
	}
	return 0, false
}

// Add notes that key's record starts at off; it replaces an earlier
// record of key.
func (x *Index[T]) Add(key string, off int64) {
	k := keyOf(key)
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.find(k); !ok {
		x.n++
	}
	x.recent[k] = off
	if len(x.recent) > max(4096, len(x.sorted)/4) {
		x.merge()
	}
}

// merge moves the recent entries into the sorted array; x.mu is held.
func (x *Index[T]) merge() {
	var fresh []indexEntry
	for k, off := range x.recent {
		if i, ok := slices.BinarySearchFunc(x.sorted, k, func(e indexEntry, k idKey) int { return compareKeys(e.key, k) }); ok {
			x.sorted[i].off = off
		} else {
			fresh = append(fresh, indexEntry{k, off})
		}
	}
	slices.SortFunc(fresh, func(a, b indexEntry) int { return compareKeys(a.key, b.key) })
	merged := make([]indexEntry, 0, len(x.sorted)+len(fresh))
	i, j := 0, 0
	for i < len(x.sorted) && j < len(fresh) {
		if compareKeys(x.sorted[i].key, fresh[j].key) < 0 {
			merged = append(merged, x.sorted[i])
			i++
		} else {
			merged = append(merged, fresh[j])
			j++
		}
	}
	merged = append(append(merged, x.sorted[i:]...), fresh[j:]...)
	x.sorted, x.recent = merged, map[idKey]int64{}
}

// Has reports whether key is indexed.
func (x *Index[T]) Has(key string) bool {
	k := keyOf(key)
	x.mu.Lock()
	defer x.mu.Unlock()
	_, ok := x.find(k)
	return ok
}

// Len is the number of keys indexed.
func (x *Index[T]) Len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.n
}

// Ref is where key's record is; ok is false when key is not indexed.
func (x *Index[T]) Ref(key string) (Ref[T], bool) {
	k := keyOf(key)
	x.mu.Lock()
	defer x.mu.Unlock()
	off, ok := x.find(k)
	return Ref[T]{idx: x, off: off}, ok
}

// At is the record that starts at off in the journal, as a caller that
// kept the offset (ReadJournalAt) finds it again.
func (x *Index[T]) At(off int64) Ref[T] { return Ref[T]{idx: x, off: off} }

// Load reads key's record back, or returns nil when key is not indexed.
func (x *Index[T]) Load(key string) (*T, error) {
	r, ok := x.Ref(key)
	if !ok {
		return nil, nil
	}
	return r.Load()
}

// Offset is where the record starts in its journal.
func (r Ref[T]) Offset() int64 { return r.off }

// Load reads the record back from its journal (ReadRecordAt). It fails
// when the record there no longer decodes: the journal changed since it
// was indexed.
func (r Ref[T]) Load() (*T, error) {
	x := r.idx
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.f == nil {
		f, err := os.Open(x.path)
		if err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
		x.f, x.rd = f, bufio.NewReaderSize(f, 64<<10)
	}
	t, err := ReadRecordAt[T](x.f, r.off, x.rd)
	if err != nil {
		return nil, fmt.Errorf("%w: the journal changed under the run; run the same command again", err)
	}
	return &t, nil
}

// Refs are every indexed record, a key's latest, in file order.
func (x *Index[T]) Refs() []Ref[T] {
	x.mu.Lock()
	defer x.mu.Unlock()
	refs := make([]Ref[T], 0, x.n)
	for _, e := range x.sorted {
		if _, replaced := x.recent[e.key]; !replaced {
			refs = append(refs, Ref[T]{idx: x, off: e.off})
		}
	}
	for _, off := range x.recent {
		refs = append(refs, Ref[T]{idx: x, off: off})
	}
	slices.SortFunc(refs, func(a, b Ref[T]) int { return cmp.Compare(a.off, b.off) })
	return refs
}

// Close closes the journal if a Load opened it; the index stays usable
// and opens it again when it next loads.
func (x *Index[T]) Close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.f != nil {
		x.f.Close()
		x.f, x.rd = nil, nil
	}
}
