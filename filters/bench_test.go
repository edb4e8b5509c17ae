package filters

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"synth/schemas"
)

var benchWords = strings.Fields("load the sales table remove duplicate rows plot a bar chart of revenue by region save it to output compute median price per month sort by date count words in the article resize image to half")

func randomQuery(r *rand.Rand) string {
	ws := make([]string, 18+r.IntN(12))
	for i := range ws {
		ws[i] = benchWords[r.IntN(len(benchWords))]
	}
	return strings.Join(ws, " ")
}

// BenchmarkDedupKeep measures Keep on a growing index of random queries.
func BenchmarkDedupKeep(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	d := NewDedup(Config{Dedup: DedupConfig{Scope: ScopeGlobal}})
	tasks := make([]schemas.Task, 4096)
	for i := range tasks {
		tasks[i] = schemas.Task{ID: fmt.Sprint(i), Query: randomQuery(r)}
	}
	i := 0
	for b.Loop() {
		t := tasks[i%len(tasks)]
		t.ID = fmt.Sprint(i)
		t.Query += fmt.Sprint(" ", i)
		d.Keep(&t)
		i++
	}
}

// BenchmarkDeconCheck measures Check against 1,000 benchmark queries.
func BenchmarkDeconCheck(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	bench := make([]schemas.Task, 1000)
	for i := range bench {
		bench[i] = schemas.Task{ID: fmt.Sprint(i), Query: randomQuery(r)}
	}
	d := NewDecontaminator(Config{}, bench)
	t := schemas.Task{Query: randomQuery(r)}
	for b.Loop() {
		d.Check(&t)
	}
}
