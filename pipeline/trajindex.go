package pipeline

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"slices"
	"sync"

	"synth/schemas"
)

// trajIndex is where a rollout journal's trajectories are, by id: the
// offset each record starts at, not the record. It costs tens of bytes
// per rollout whatever the rollout's size; the stages after the rollouts
// read the trajectories back one at a time (load). A later record of an id
// replaces an earlier one, as when the whole journal was read into a map.
// It is safe for concurrent use.
type trajIndex struct {
	path string
	mu   sync.Mutex
	at   map[string]int64
	f    *os.File // opened by the first load; closed by close
	rd   *bufio.Reader
}

// trajRef is one indexed trajectory.
type trajRef struct {
	idx *trajIndex
	off int64
}

// indexJournal reads the ids of a rollout journal's records. A missing
// journal has none.
func indexJournal(path string) (*trajIndex, error) {
	x := &trajIndex{path: path, at: map[string]int64{}}
	type idOnly struct {
		ID string `json:"id"`
	}
	err := ReadJournalAt(path, func(off int64, t idOnly) error { x.at[t.ID] = off; return nil })
	if err != nil {
		return nil, err
	}
	return x, nil
}

// add notes that id's record starts at off.
func (x *trajIndex) add(id string, off int64) {
	x.mu.Lock()
	x.at[id] = off
	x.mu.Unlock()
}

// has reports whether id is journaled.
func (x *trajIndex) has(id string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	_, ok := x.at[id]
	return ok
}

// len is the number of journaled ids.
func (x *trajIndex) len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.at)
}

// ref is where id's record is; ok is false when id is not journaled.
func (x *trajIndex) ref(id string) (trajRef, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	off, ok := x.at[id]
	return trajRef{idx: x, off: off}, ok
}

// load reads id's trajectory back, or returns nil when id is not
// journaled.
func (x *trajIndex) load(id string) (*schemas.Trajectory, error) {
	r, ok := x.ref(id)
	if !ok {
		return nil, nil
	}
	return r.load()
}

// load reads the trajectory back from its journal.
func (r trajRef) load() (*schemas.Trajectory, error) {
	x := r.idx
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.f == nil {
		f, err := os.Open(x.path)
		if err != nil {
			return nil, fmt.Errorf("rollout journal: %w", err)
		}
		x.f, x.rd = f, bufio.NewReaderSize(f, 64<<10)
	}
	t, err := ReadRecordAt[schemas.Trajectory](x.f, r.off, x.rd)
	if err != nil {
		return nil, fmt.Errorf("%w: the journal changed under the run; run the same command again", err)
	}
	return &t, nil
}

// refs are every journaled record, in file order.
func (x *trajIndex) refs() []trajRef {
	x.mu.Lock()
	defer x.mu.Unlock()
	refs := make([]trajRef, 0, len(x.at))
	for _, off := range x.at {
		refs = append(refs, trajRef{idx: x, off: off})
	}
	slices.SortFunc(refs, func(a, b trajRef) int { return cmp.Compare(a.off, b.off) })
	return refs
}

// close closes the journal if a load opened it.
func (x *trajIndex) close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.f != nil {
		x.f.Close()
		x.f, x.rd = nil, nil
	}
}
