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
type Decon struct {
	cfg   DeconConfig
	bench []schemas.Task
	grams map[uint64][]int32 // n-gram -> benchmark tasks holding it
	files map[string]string  // file sha256 -> where the benchmark uses it
}

// NewDecontaminator indexes the benchmark tasks' queries and input files.
func NewDecontaminator(cfg Config, bench []schemas.Task) *Decon {
	c := cfg.Decon.WithDefaults()
	d := &Decon{cfg: c, bench: bench, grams: map[uint64][]int32{}, files: map[string]string{}}
	for i := range bench {
		b := &bench[i]
		for g := range ngrams(words(b.Query), c.NGram) {
			d.grams[g] = append(d.grams[g], int32(i))
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
	grams := ngrams(words(t.Query), d.cfg.NGram)
	if len(grams) == 0 {
		return true, "", ""
	}
	hits := map[int32]int{}
	for g := range grams {
		for _, i := range d.grams[g] {
			hits[i]++
		}
	}
	best, bestN := int32(-1), 0
	for i, n := range hits {
		if n > bestN || (n == bestN && i < best) {
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
