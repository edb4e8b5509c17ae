package filters

import (
	"fmt"

	"synth/schemas"
)

// Reasons Decon drops a task for.
const (
	ReasonBenchmarkQuery = "benchmark_query"
	ReasonBenchmarkFile  = "benchmark_file"
)

// Decon checks training tasks against benchmark tasks (synth's own and any
// imported benchmark, such as PyBench): a training task is contaminated when
// one of its input files has the content hash of a benchmark input file, or
// when at least the threshold share of its query's word n-grams occur in one
// benchmark query. It is read-only after construction and safe for
// concurrent use.
//
// The cost of Check is bounded whatever the benchmark: an n-gram remembers
// at most postingCap of the benchmark tasks that hold it (boilerplate that
// every templated query shares does not make every check walk every task),
// and only the maxCandidates benchmark tasks with the most hits among those
// are measured exactly. A training query that overlaps a benchmark query in
// its distinctive n-grams is always found; one whose overlap is all
// boilerplate is found through the first benchmark tasks holding that
// boilerplate, which overlap it as much.
type Decon struct {
	cfg    DeconConfig
	bench  []schemas.Task
	grams  map[uint64][]int32 // n-gram -> benchmark tasks holding it, at most postingCap
	byTask [][]uint64         // benchmark task -> its n-grams, sorted
	files  map[string]string  // file sha256 -> where the benchmark uses it
}

// postingCap bounds the benchmark tasks remembered per n-gram (see Decon).
const postingCap = 64

// NewDecontaminator indexes the benchmark tasks' queries and input files.
func NewDecontaminator(cfg Config, bench []schemas.Task) *Decon {
	c := cfg.Decon.WithDefaults()
	d := &Decon{cfg: c, bench: bench, grams: map[uint64][]int32{}, byTask: make([][]uint64, len(bench)), files: map[string]string{}}
	for i := range bench {
		b := &bench[i]
		d.byTask[i] = sortedGrams(words(b.Query), c.NGram)
		for _, g := range d.byTask[i] {
			if p := d.grams[g]; len(p) < postingCap {
				d.grams[g] = append(p, int32(i))
			}
		}
		for _, f := range b.Files {
			if f.ID != "" {
				if _, ok := d.files[f.ID]; !ok {
					d.files[f.ID] = fmt.Sprintf("input %s of benchmark task %s", f.Name, b.ID)
				}
			}
		}
	}
	return d
}

// Check reports whether task t is clean. A contaminated task gets a reason
// (benchmark_file or benchmark_query) and matched, what it matched: the
// benchmark task and file, or the benchmark task, the overlap and the start
// of its query.
func (d *Decon) Check(t *schemas.Task) (ok bool, reason, matched string) {
	if d.cfg.Off {
		return true, "", ""
	}
	for _, f := range t.Files {
		if where, hit := d.files[f.ID]; hit && f.ID != "" {
			return false, ReasonBenchmarkFile, fmt.Sprintf("file %s (sha256 %s) is %s", f.Name, short(f.ID), where)
		}
	}
	grams := sortedGrams(words(t.Query), d.cfg.NGram)
	if len(grams) == 0 {
		return true, "", ""
	}
	hits := map[int32]int{}
	for _, g := range grams {
		for _, i := range d.grams[g] {
			hits[i]++
		}
	}
	best, bestN := int32(-1), 0
	for _, i := range topHits(hits, maxCandidates) {
		if n := intersect(grams, d.byTask[i]); n > bestN || (n == bestN && i < best) {
			best, bestN = i, n
		}
	}
	overlap := float64(bestN) / float64(len(grams))
	if best < 0 || overlap < d.cfg.Threshold {
		return true, "", ""
	}
	b := &d.bench[best]
	return false, ReasonBenchmarkQuery, fmt.Sprintf("benchmark task %s (%.0f%% of %d-grams): %q", b.ID, 100*overlap, d.cfg.NGram, clip(b.Query, 80))
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
