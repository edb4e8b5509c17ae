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
// digest of the id and an offset, about 30 bytes whatever the sizes of the
// record and its id (a trajectory's id alone is 64 bytes); records are read
// back one at a time (load). A later record of an id replaces an earlier
// one, as when the whole journal was read into a map. It is safe for
// concurrent use.
type journalIndex[T any] struct {
	path string
	mu   sync.Mutex
	at   map[idKey]int64
	f    *os.File // opened by the first load; closed by close
	rd   *bufio.Reader
}

// idKey is the first 128 bits of an id's SHA-256: two ids of a run that
// share one are as unlikely as a forged SHA-256 collision.
type idKey [2]uint64

func keyOf(id string) idKey {
	sum := sha256.Sum256([]byte(id))
	return idKey{binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])}
}

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
	err := ReadJournalAt(path, func(off int64, t idOnly) error { x.at[keyOf(t.ID)] = off; return nil })
	if err != nil {
		return nil, err
	}
	return x, nil
}

func newJournalIndex[T any](path string) *journalIndex[T] {
	return &journalIndex[T]{path: path, at: map[idKey]int64{}}
}

// add notes that id's record starts at off.
func (x *journalIndex[T]) add(id string, off int64) {
	k := keyOf(id)
	x.mu.Lock()
	x.at[k] = off
	x.mu.Unlock()
}

// has reports whether id is journaled.
func (x *journalIndex[T]) has(id string) bool {
	k := keyOf(id)
	x.mu.Lock()
	defer x.mu.Unlock()
	_, ok := x.at[k]
	return ok
}

// len is the number of journaled ids.
func (x *journalIndex[T]) len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.at)
}

// ref is where id's record is; ok is false when id is not journaled.
func (x *journalIndex[T]) ref(id string) (recordRef[T], bool) {
	k := keyOf(id)
	x.mu.Lock()
	defer x.mu.Unlock()
	off, ok := x.at[k]
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
	refs := make([]recordRef[T], 0, len(x.at))
	for _, off := range x.at {
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
