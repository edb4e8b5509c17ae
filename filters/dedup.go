package filters

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sync"

	"synth/schemas"
)

// Reasons Dedup drops an item for.
const (
	ReasonDuplicateQuery      = "duplicate_query"
	ReasonNearDuplicateQuery  = "near_duplicate_query"
	ReasonDuplicateTrajectory = "duplicate_trajectory"
)

// Dedup drops repeated tasks and trajectories: a task whose normalised
// query equals an earlier one's (exact), or whose word shingles have a
// Jaccard similarity of at least the threshold with an earlier one's
// (near-duplicate, found with MinHash and LSH, then confirmed exactly), and
// a trajectory whose messages equal an earlier one's. With the "inputs"
// scope, tasks are compared only with tasks over the same input files.
//
// The first item seen is kept; a Dedup remembers every kept item, so feed it
// items in a deterministic order for a deterministic result. It is safe for
// concurrent use.
//
// The cost of Keep is bounded whatever the input: a bucket remembers at most
// bucketCap kept tasks (once full, each new one replaces an earlier one in a
// fixed rotation), and only the maxCandidates tasks that share the most
// buckets with a query have their Jaccard similarity computed. Queries of one
// phrasing, which all share buckets, therefore cost the same at 1,000 tasks
// as at 1,000,000. The price is recall in that crowd: a near-duplicate of a
// task that has rotated out of every bucket it shared is kept.
type Dedup struct {
	cfg   DedupConfig
	mh    *minHasher
	mu    sync.Mutex
	exact map[uint64]string // scoped query hash -> task id
	// buckets maps a band key to its kept tasks, at most bucketCap: a
	// value v >= 0 is the bucket's only task, v < 0 is crowds[-v-1]. Most
	// buckets of a large run hold one task, so they cost a map entry and no
	// slice.
	buckets map[uint64]int32
	crowds  [][]int32 // the buckets of more than one task
	kept    []keptQuery
	// trajs maps a kept trajectory's messages hash to its number in the
	// order kept; trajIDs holds their ids unless trajID, when set, reads
	// one back (see ForgetTrajectoryIDs).
	trajs   numbered
	trajIDs []string
	trajID  func(n int) (string, error)
	// query, when set, returns a kept task's query, and kept tasks hold no
	// shingles (see ForgetQueries); err is the first error it returned.
	query func(id string) (string, error)
	err   error
}

type keptQuery struct {
	id       string
	shingles []uint64 // sorted, distinct; nil under ForgetQueries
}

// Bounds on the work of one Keep (see Dedup).
const (
	bucketCap     = 32
	maxCandidates = 16
)

// NewDedup returns an empty Dedup configured by cfg.Dedup.
func NewDedup(cfg Config) *Dedup {
	c := cfg.Dedup.WithDefaults()
	return &Dedup{
		cfg:     c,
		mh:      newMinHasher(c.Permutations, c.NearThreshold),
		exact:   map[uint64]string{},
		buckets: map[uint64]int32{},
	}
}

// ForgetQueries makes d keep no kept task's shingles, which are most of
// its memory (8 bytes a word): when a kept task is a candidate near
// duplicate, d shingles again the query that query returns for its id.
// The results are the same; each Keep then reads at most maxCandidates
// queries back, and none when no kept task shares a bucket with it. A
// kept task whose query cannot be read counts as no near duplicate; Err
// reports the first such error. Call it before the first Keep.
func (d *Dedup) ForgetQueries(query func(id string) (string, error)) { d.query = query }

// Err is the first error the query function of ForgetQueries returned.
func (d *Dedup) Err() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// Keep reports whether task t is new, remembering it if so. A duplicate
// gets a reason (duplicate_query or near_duplicate_query) and matched, the
// kept task it repeats.
func (d *Dedup) Keep(t *schemas.Task) (ok bool, reason, matched string) {
	if d.cfg.Off {
		return true, "", ""
	}
	ws := words(t.Query)
	scope := d.scope(t)
	key := splitmix(hashWords(ws) ^ scope)
	shingles := sortedGrams(ws, d.cfg.ShingleWords)
	var keys []uint64
	if len(shingles) > 0 {
		keys = d.mh.bandKeys(d.mh.signature(shingles), scope)
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	if id, dup := d.exact[key]; dup {
		return false, ReasonDuplicateQuery, "task " + id
	}
	for _, i := range d.candidates(keys) {
		if j := jaccard(shingles, d.shinglesOf(i)); j >= d.cfg.NearThreshold {
			return false, ReasonNearDuplicateQuery, fmt.Sprintf("task %s (jaccard %.2f)", d.kept[i].id, j)
		}
	}
	d.exact[key] = t.ID
	if len(keys) > 0 {
		i := int32(len(d.kept))
		if d.query != nil {
			shingles = nil
		}
		d.kept = append(d.kept, keptQuery{id: t.ID, shingles: shingles})
		for _, k := range keys {
			d.remember(k, i)
		}
	}
	return true, "", ""
}

// shinglesOf is kept task i's shingles, shingled again from its query under
// ForgetQueries; nil (no similarity) when the query cannot be read.
func (d *Dedup) shinglesOf(i int32) []uint64 {
	k := d.kept[i]
	if d.query == nil {
		return k.shingles
	}
	q, err := d.query(k.id)
	if err != nil {
		if d.err == nil {
			d.err = fmt.Errorf("dedup: query of kept task %s: %w", k.id, err)
		}
		return nil
	}
	return sortedGrams(words(q), d.cfg.ShingleWords)
}

// candidates returns the kept tasks sharing a bucket with keys, those that
// share the most first (earlier kept tasks first among equals), at most
// maxCandidates of them. A near-duplicate shares many more buckets than a
// task that merely has the same phrasing, so it ranks first.
func (d *Dedup) candidates(keys []uint64) []int32 {
	shared := map[int32]int{}
	for _, k := range keys {
		v, ok := d.buckets[k]
		switch {
		case !ok:
		case v >= 0:
			shared[v]++
		default:
			for _, i := range d.crowds[-v-1] {
				shared[i]++
			}
		}
	}
	return topHits(shared, maxCandidates)
}

// remember adds kept task i to bucket k; a full bucket replaces one of its
// tasks in a fixed rotation.
func (d *Dedup) remember(k uint64, i int32) {
	v, ok := d.buckets[k]
	switch {
	case !ok:
		d.buckets[k] = i
	case v >= 0:
		d.crowds = append(d.crowds, []int32{v, i})
		d.buckets[k] = -int32(len(d.crowds))
	default:
		b := d.crowds[-v-1]
		if len(b) < bucketCap {
			d.crowds[-v-1] = append(b, i)
		} else {
			b[int(i)%bucketCap] = i
		}
	}
}

// bucket is the kept tasks of bucket k.
func (d *Dedup) bucket(k uint64) []int32 {
	v, ok := d.buckets[k]
	switch {
	case !ok:
		return nil
	case v >= 0:
		return []int32{v}
	}
	return d.crowds[-v-1]
}

// topHits returns up to n keys of hits with the largest counts, ties broken
// by the smaller key.
func topHits(hits map[int32]int, n int) []int32 {
	type hit struct{ id, n int32 }
	hs := make([]hit, 0, len(hits))
	for i, c := range hits {
		hs = append(hs, hit{i, int32(c)})
	}
	slices.SortFunc(hs, func(a, b hit) int {
		if a.n != b.n {
			return int(b.n - a.n)
		}
		return int(a.id - b.id)
	})
	ids := make([]int32, 0, min(n, len(hs)))
	for _, h := range hs[:min(n, len(hs))] {
		ids = append(ids, h.id)
	}
	return ids
}

// KeepTrajectory reports whether trajectory tr's messages are new,
// remembering them if so; a repeat gets reason duplicate_trajectory and the
// kept trajectory it repeats.
func (d *Dedup) KeepTrajectory(tr *schemas.Trajectory) (ok bool, reason, matched string) {
	if d.cfg.Off {
		return true, "", ""
	}
	h := fnv.New64a()
	for _, m := range tr.Messages {
		fmt.Fprintf(h, "%d:%s%d:%s", len(m.Role), m.Role, len(m.Content), m.Content)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(h, "%d:%s%d:%s", len(c.Name), c.Name, len(c.Arguments), c.Arguments)
		}
	}
	key := h.Sum64()
	d.mu.Lock()
	defer d.mu.Unlock()
	if n, dup := d.trajs.lookup(key); dup {
		return false, ReasonDuplicateTrajectory, "trajectory " + d.keptTrajectory(n)
	}
	d.trajs.add(key)
	if d.trajID == nil {
		d.trajIDs = append(d.trajIDs, tr.ID)
	}
	return true, "", ""
}

// ForgetTrajectoryIDs makes d hold no kept trajectory's id (64 bytes
// each in a build): id(n) returns the id of the n-th trajectory kept,
// counting from 0, when a repeat is to name it. An id it cannot give is
// reported as "#n"; Err reports the error. Call it before the first
// KeepTrajectory.
func (d *Dedup) ForgetTrajectoryIDs(id func(n int) (string, error)) { d.trajID = id }

func (d *Dedup) keptTrajectory(n int32) string {
	if d.trajID == nil {
		return d.trajIDs[n]
	}
	id, err := d.trajID(int(n))
	if err != nil {
		if d.err == nil {
			d.err = fmt.Errorf("dedup: id of kept trajectory %d: %w", n, err)
		}
		return fmt.Sprintf("#%d", n)
	}
	return id
}

// Scope is the key of the tasks t is compared with: tasks of different
// scopes are never duplicates of one another. Under the inputs scope it is
// a hash of t's sorted input file ids; under the global scope it is zero
// for every task.
//
// A caller may therefore feed a Dedup its tasks one scope at a time (each
// scope in its own order) and Forget between scopes: the result is the
// same, and the Dedup holds only the largest scope's tasks, not the run's.
func (d *Dedup) Scope(t *schemas.Task) uint64 { return d.scope(t) }

// Forget drops every task d remembers (not its trajectories): call it
// between scopes (see Scope).
func (d *Dedup) Forget() {
	d.mu.Lock()
	defer d.mu.Unlock()
	// New maps, not cleared ones: a cleared map keeps its size, and
	// clearing it again after each small scope would cost as much.
	d.exact, d.buckets = map[uint64]string{}, map[uint64]int32{}
	d.crowds, d.kept = nil, nil
}

func (d *Dedup) scope(t *schemas.Task) uint64 {
	if d.cfg.Scope == ScopeGlobal || len(t.Files) == 0 {
		return 0
	}
	ids := make([]string, len(t.Files))
	for i, f := range t.Files {
		ids[i] = f.ID
	}
	slices.Sort(ids)
	return splitmix(hashWords(ids))
}
