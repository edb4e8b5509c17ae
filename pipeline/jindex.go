package pipeline

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"sync"

	"synth/schemas"
)

// journalIndex is where a journal's records are, by id: the offset each
// record starts at, not the record, nor even its id. An entry is a 128-bit
// digest of the id and an offset, 24 bytes in a sorted array whatever the
// sizes of the record and its id (a trajectory's id alone is 24 bytes, and
// a Go map would spend about 56 bytes an entry); the entries added since
// the array was last merged wait in a small map. Records are read back one
// at a time (load). A later record of an id replaces an earlier one, as
// when the whole journal was read into a map. It is safe for concurrent
// use.
type journalIndex[T any] struct {
	path   string
	mu     sync.Mutex
	sorted []indexEntry    // by key, one entry a key
	recent map[idKey]int64 // added since sorted was last merged; replaces sorted's entry
	n      int             // distinct keys
	f      *os.File        // opened by the first load; closed by close
	rd     *bufio.Reader
}

type indexEntry struct {
	key idKey
	off int64
}

// idKey is the first 128 bits of an id's SHA-256: two ids of a run that
// share one are as unlikely as a forged SHA-256 collision.
type idKey [2]uint64

func keyOf(id string) idKey {
	sum := sha256.Sum256([]byte(id))
	return idKey{binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])}
}

func compareKeys(a, b idKey) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }

// recordRef is one indexed record.
type recordRef[T any] struct {
	idx *journalIndex[T]
	off int64
}

// A trajIndex indexes a rollout journal; the stages after the rollouts
// hold trajRefs, not trajectories.
type (
	trajIndex = journalIndex[schemas.Trajectory]
	trajRef   = recordRef[schemas.Trajectory]
)

// indexJournal reads the ids of a rollout journal's records. A missing
// journal has none.
func indexJournal(path string) (*trajIndex, error) {
	x := newJournalIndex[schemas.Trajectory](path)
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

func newJournalIndex[T any](path string) *journalIndex[T] {
	return &journalIndex[T]{path: path, recent: map[idKey]int64{}}
}

// find is where key's record starts; x.mu is held.
func (x *journalIndex[T]) find(k idKey) (int64, bool) {
	if off, ok := x.recent[k]; ok {
		return off, true
	}
	if i, ok := slices.BinarySearchFunc(x.sorted, k, func(e indexEntry, k idKey) int { return compareKeys(e.key, k) }); ok {
		return x.sorted[i].off, true
	}
	return 0, false
}

// add notes that id's record starts at off.
func (x *journalIndex[T]) add(id string, off int64) {
	k := keyOf(id)
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
func (x *journalIndex[T]) merge() {
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

// has reports whether id is journaled.
func (x *journalIndex[T]) has(id string) bool {
	k := keyOf(id)
	x.mu.Lock()
	defer x.mu.Unlock()
	_, ok := x.find(k)
	return ok
}

// len is the number of journaled ids.
func (x *journalIndex[T]) len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.n
}

// ref is where id's record is; ok is false when id is not journaled.
func (x *journalIndex[T]) ref(id string) (recordRef[T], bool) {
	k := keyOf(id)
	x.mu.Lock()
	defer x.mu.Unlock()
	off, ok := x.find(k)
	return recordRef[T]{idx: x, off: off}, ok
}

// load reads id's record back, or returns nil when id is not journaled.
func (x *journalIndex[T]) load(id string) (*T, error) {
	r, ok := x.ref(id)
	if !ok {
		return nil, nil
	}
	return r.load()
}

// load reads the record back from its journal.
func (r recordRef[T]) load() (*T, error) {
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

// refs are every journaled record, in file order.
func (x *journalIndex[T]) refs() []recordRef[T] {
	x.mu.Lock()
	defer x.mu.Unlock()
	refs := make([]recordRef[T], 0, x.n)
	for _, e := range x.sorted {
		if _, replaced := x.recent[e.key]; !replaced {
			refs = append(refs, recordRef[T]{idx: x, off: e.off})
		}
	}
	for _, off := range x.recent {
		refs = append(refs, recordRef[T]{idx: x, off: off})
	}
	slices.SortFunc(refs, func(a, b recordRef[T]) int { return cmp.Compare(a.off, b.off) })
	return refs
}

// close closes the journal if a load opened it.
func (x *journalIndex[T]) close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.f != nil {
		x.f.Close()
		x.f, x.rd = nil, nil
	}
}
