package filters

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"synth/schemas"
)

// The caps that bound Dedup and Decon (bucketCap, postingCap,
// maxCandidates) must not cost the guarantees their tests state. These
// tests rerun those fixtures behind a crowd of one-phrasing queries that
// fills every shared bucket and posting past its cap.

func TestDedupCapsKeepRecallInACrowd(t *testing.T) {
	d := NewDedup(Config{Dedup: DedupConfig{Scope: ScopeGlobal}})
	crowd := onePhrasing(3000, 21)
	var kept []*schemas.Task
	for i := range crowd {
		if ok, _, _ := d.Keep(&crowd[i]); ok {
			kept = append(kept, &crowd[i])
		}
	}
	for k := range d.buckets {
		if b := d.bucket(k); len(b) > bucketCap {
			t.Fatalf("bucket %x holds %d tasks, cap %d", k, len(b), bucketCap)
		}
	}
	full := 0
	for k := range d.buckets {
		if len(d.bucket(k)) == bucketCap {
			full++
		}
	}
	if full == 0 {
		t.Fatal("no bucket reached its cap: the crowd does not exercise it")
	}

	// A one-word edit of a 40-word query has a Jaccard similarity of about
	// 0.85: a near-duplicate of a crowd member, early or late.
	found, tried := 0, 0
	for _, i := range []int{0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987} {
		for _, from := range []int{i, len(kept) - 1 - i} {
			ws := strings.Fields(kept[from].Query)
			ws[len(ws)/2] = fmt.Sprintf("edit%d", from)
			tried++
			if ok, reason, _ := d.Keep(task(fmt.Sprint("edit", from), strings.Join(ws, " "))); !ok && reason == ReasonNearDuplicateQuery {
				found++
			}
		}
	}
	t.Logf("found %d of %d near-duplicates of crowd members", found, tried)
	if found < tried*9/10 {
		t.Errorf("found %d of %d near-duplicates of crowd members, want at least 90%%", found, tried)
	}

	base := "Load the sales table, remove duplicate rows and rows with missing prices, then save the cleaned table to ./output/clean.csv"
	if ok, _, _ := d.Keep(task("a", base)); !ok {
		t.Fatal("a new query was dropped behind the crowd")
	}
	if ok, reason, _ := d.Keep(task("b", base+" without the index")); ok || reason != ReasonNearDuplicateQuery {
		t.Errorf("near duplicate behind the crowd: kept %v, reason %q", ok, reason)
	}
	if ok, _, _ := d.Keep(task("c", "Plot monthly revenue as a line chart and save it to ./output/revenue.png")); !ok {
		t.Error("a different query was dropped behind the crowd")
	}
}

func TestDeconCapsKeepGuaranteesInACrowd(t *testing.T) {
	crowd := onePhrasing(3000, 23)
	fixture := []schemas.Task{
		{ID: "b1", Query: "Group the employees by department, compute the average salary of each department and draw a bar chart saved to ./output/salary.png", Files: []schemas.TaskFile{{ID: "sha-emp", Name: "employees.xlsx"}}},
		{ID: "b2", Query: "Detect the language of the article and count its ten most frequent words"},
	}
	bench := append(append([]schemas.Task{}, crowd...), fixture...)
	d := NewDecontaminator(Config{}, bench)
	for g, p := range d.grams {
		if len(p) > postingCap {
			t.Fatalf("n-gram %x lists %d tasks, cap %d", g, len(p), postingCap)
		}
	}
	for _, tc := range []struct {
		name   string
		task   *schemas.Task
		reason string
	}{
		{"copied fixture query", task("t1", "group the employees by department, compute the average salary of each department and draw a bar chart saved to ./output/salary.png"), ReasonBenchmarkQuery},
		{"short fixture copy", task("t2", "Detect the language of the article and count its ten most frequent words"), ReasonBenchmarkQuery},
		{"copied late crowd query", task("t3", crowd[2900].Query), ReasonBenchmarkQuery},
		{"copied early crowd query", task("t4", crowd[3].Query), ReasonBenchmarkQuery},
		{"crowd phrasing, other words", task("t5", onePhrasing(1, 99)[0].Query), ReasonBenchmarkQuery},
		{"benchmark file", task("t6", "Summarise the table", "sha-emp"), ReasonBenchmarkFile},
		{"clean", task("t7", "Plot the monthly revenue of the sales table as a line chart"), ""},
		{"shares a few words", task("t8", "Group the customers by region and count them"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, reason, matched := d.Check(tc.task)
			if reason != tc.reason || ok != (tc.reason == "") {
				t.Fatalf("Check = %v %q %q, want %q", ok, reason, matched, tc.reason)
			}
		})
	}
}

// TestDedupBucketsKeepTheirMembers checks the compact buckets against the
// plain slices they replace: the same members, in the same order, with
// the same rotation once a bucket is full.
func TestDedupBucketsKeepTheirMembers(t *testing.T) {
	d := NewDedup(Config{})
	want := map[uint64][]int32{}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range int32(5000) {
		// Keys 0..199 crowd; keys from 1000 up hold one task each.
		keys := []uint64{uint64(rng.IntN(200)), 1000 + uint64(i)}
		for _, k := range keys {
			d.remember(k, i)
			if b := want[k]; len(b) < bucketCap {
				want[k] = append(b, i)
			} else {
				b[int(i)%bucketCap] = i
			}
		}
	}
	if len(d.buckets) != len(want) {
		t.Fatalf("%d buckets, want %d", len(d.buckets), len(want))
	}
	for k, w := range want {
		if got := d.bucket(k); !slices.Equal(got, w) {
			t.Fatalf("bucket %d = %v, want %v", k, got, w)
		}
	}
	if len(d.crowds) != 200 {
		t.Fatalf("%d buckets hold a slice, want only the 200 shared ones", len(d.crowds))
	}
}

// TestDedupForgetQueriesKeepsTheSameTasks runs the crowd, near-duplicate
// edits of its members and exact copies through a Dedup that keeps
// shingles and one that reads queries back: every verdict is the same.
func TestDedupForgetQueriesKeepsTheSameTasks(t *testing.T) {
	tasks := onePhrasing(2000, 5)
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 400 {
		src := tasks[rng.IntN(len(tasks))]
		ws := strings.Fields(src.Query)
		if i%2 == 0 {
			ws[rng.IntN(len(ws))] = fmt.Sprintf("edit%d", i) // Jaccard about 0.85: a near duplicate
		}
		tasks = append(tasks, schemas.Task{ID: fmt.Sprintf("copy%d", i), Query: strings.Join(ws, " ")})
	}
	queries := map[string]string{}
	for _, tk := range tasks {
		queries[tk.ID] = tk.Query
	}
	plain := NewDedup(Config{Dedup: DedupConfig{Scope: ScopeGlobal}})
	forgetful := NewDedup(Config{Dedup: DedupConfig{Scope: ScopeGlobal}})
	reads := 0
	forgetful.ForgetQueries(func(id string) (string, error) { reads++; return queries[id], nil })
	dropped := 0
	for i := range tasks {
		ok1, r1, m1 := plain.Keep(&tasks[i])
		ok2, r2, m2 := forgetful.Keep(&tasks[i])
		if ok1 != ok2 || r1 != r2 || m1 != m2 {
			t.Fatalf("task %s: keeping shingles: %v %s %s; reading queries back: %v %s %s", tasks[i].ID, ok1, r1, m1, ok2, r2, m2)
		}
		if !ok1 {
			dropped++
		}
	}
	if dropped < 300 || reads == 0 {
		t.Fatalf("%d dropped, %d queries read back: the fixture does not exercise near duplicates", dropped, reads)
	}
	for _, k := range forgetful.kept {
		if k.shingles != nil {
			t.Fatalf("kept task %s holds its shingles under ForgetQueries", k.id)
		}
	}
	if err := forgetful.Err(); err != nil {
		t.Fatal(err)
	}

	// A query that cannot be read is reported, not hidden.
	failing := NewDedup(Config{Dedup: DedupConfig{Scope: ScopeGlobal}})
	failing.ForgetQueries(func(id string) (string, error) { return "", fmt.Errorf("gone") })
	for i := range tasks[:50] {
		failing.Keep(&tasks[i])
	}
	if err := failing.Err(); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Fatalf("Err() = %v, want the query's error", err)
	}
}
