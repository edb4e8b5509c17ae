package filters

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"synth/schemas"
)

// onePhrasing returns n queries of one templated phrasing, as an LLM query
// writer or a template produces them: a fixed 40-word sentence in which
// two words are replaced, per query, by words of its own. Two such
// queries have a 3-word-shingle Jaccard similarity of about 0.6, under the
// near-duplicate threshold, so every one is kept and all of them share LSH
// buckets: the worst case for a bucket scan.
func onePhrasing(n int, seed uint64) []schemas.Task {
	base := strings.Fields("load the quarterly sales table from the data folder then remove duplicate rows " +
		"fill the missing prices with the median of their region compute the monthly revenue per region " +
		"and plot it as a line chart saved to the output folder with a title and labelled axes")
	r := rand.New(rand.NewPCG(seed, seed+1))
	tasks := make([]schemas.Task, n)
	for i := range tasks {
		ws := append([]string(nil), base...)
		for k := range 2 {
			ws[r.IntN(len(ws))] = fmt.Sprintf("v%dx%d", i, k)
		}
		tasks[i] = schemas.Task{ID: fmt.Sprint(i), Query: strings.Join(ws, " ")}
	}
	return tasks
}

// cpuTime returns the CPU time this process has used. The worst-case
// benchmarks report CPU per task, not wall time, so the figure holds on a
// machine shared with other work.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDedupWorstCase keeps n one-phrasing tasks in one scope and
// reports the cost per task.
func BenchmarkDedupWorstCase(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			tasks := onePhrasing(n, 7)
			var spent time.Duration
			for b.Loop() {
				d := NewDedup(Config{Dedup: DedupConfig{Scope: ScopeGlobal}})
				start := cpuTime(b)
				for i := range tasks {
					d.Keep(&tasks[i])
				}
				spent += cpuTime(b) - start
			}
			b.ReportMetric(float64(spent.Microseconds())/float64(b.N*n), "us/task")
		})
	}
}

// BenchmarkDeconWorstCase checks n one-phrasing training tasks against n
// benchmark tasks of the same phrasing and reports the cost per checked
// task.
func BenchmarkDeconWorstCase(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			bench := onePhrasing(n, 11)
			train := onePhrasing(n, 13)
			var spent time.Duration
			for b.Loop() {
				d := NewDecontaminator(Config{}, bench)
				start := cpuTime(b)
				for i := range train {
					d.Check(&train[i])
				}
				spent += cpuTime(b) - start
			}
			b.ReportMetric(float64(spent.Microseconds())/float64(b.N*n), "us/task")
		})
	}
}

func TestOnePhrasingIsTheWorstCase(t *testing.T) {
	tasks := onePhrasing(200, 7)
	var sum float64
	pairs := 0
	for i := 0; i < len(tasks); i += 7 {
		for j := i + 1; j < len(tasks); j += 13 {
			a := sortedGrams(words(tasks[i].Query), DefaultShingleWords)
			c := sortedGrams(words(tasks[j].Query), DefaultShingleWords)
			sum += jaccard(a, c)
			pairs++
		}
	}
	mean := sum / float64(pairs)
	t.Logf("mean jaccard %.3f", mean)
	if mean < 0.5 || mean > 0.7 {
		t.Errorf("mean Jaccard of one-phrasing queries %.2f, want about 0.6", mean)
	}
	d := NewDedup(Config{Dedup: DedupConfig{Scope: ScopeGlobal}})
	kept := 0
	for i := range tasks {
		if ok, _, _ := d.Keep(&tasks[i]); ok {
			kept++
		}
	}
	if kept < len(tasks)*4/5 {
		t.Errorf("kept %d of %d one-phrasing tasks: they should be distinct, not near-duplicates", kept, len(tasks))
	}
}
