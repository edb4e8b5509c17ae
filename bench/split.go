package bench

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"sort"
	"strconv"

	"synth/schemas"
)

// Split divides tasks between the benchmark and training. It is
// deterministic for a seed, stratified by category (each category gives
// about fraction of its tasks), and disjoint by input file: tasks that share
// a file always land on the same side, so no benchmark input ever feeds a
// training trajectory. Both results keep the input order.
func Split(tasks []schemas.Task, fraction float64, seed int64) (benchmark, train []schemas.Task) {
	groups := groupBySharedFiles(tasks)
	byCat := map[string][]group{}
	total := map[string]int{}
	for _, g := range groups {
		c := tasks[g.members[0]].Category
		g.rank = rank(seed, g.key)
		byCat[c] = append(byCat[c], g)
		total[c] += len(g.members)
	}
	inBench := make([]bool, len(tasks))
	for c, gs := range byCat {
		sort.Slice(gs, func(i, j int) bool { return gs[i].rank < gs[j].rank })
		want := int(math.Round(fraction * float64(total[c])))
		// Take groups in rank order, skipping one that would overshoot the
		// target by more than it is missing.
		took := 0
		for _, g := range gs {
			if took >= want {
				break
			}
			if n := len(g.members); took+n-want >= want-took {
				continue
			}
			for _, m := range g.members {
				inBench[m] = true
			}
			took += len(g.members)
		}
		if took == 0 && want > 0 && len(gs) > 1 {
			// Every group overshoots: take the smallest, so the category is
			// in the benchmark at all, but never all of its tasks.
			small := gs[0]
			for _, g := range gs[1:] {
				if len(g.members) < len(small.members) {
					small = g
				}
			}
			for _, m := range small.members {
				inBench[m] = true
			}
		}
	}
	for i, t := range tasks {
		if inBench[i] {
			benchmark = append(benchmark, t)
		} else {
			train = append(train, t)
		}
	}
	return benchmark, train
}

// group is a set of tasks connected by shared input files.
type group struct {
	members []int  // task indexes
	key     string // the smallest file id or task id in the group: stable across runs
	rank    uint64
}

func groupBySharedFiles(tasks []schemas.Task) []group {
	parent := make([]int, len(tasks))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	owner := map[string]int{}
	for i, t := range tasks {
		for _, f := range t.Files {
			if j, ok := owner[f.ID]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[f.ID] = i
			}
		}
	}
	byRoot := map[int]*group{}
	var order []int
	for i, t := range tasks {
		r := find(i)
		g, ok := byRoot[r]
		if !ok {
			g = &group{key: "\xff"}
			byRoot[r] = g
			order = append(order, r)
		}
		g.members = append(g.members, i)
		k := t.ID
		if len(t.Files) > 0 {
			k = t.Files[0].ID
		}
		g.key = min(g.key, k)
	}
	out := make([]group, 0, len(order))
	for _, r := range order {
		out = append(out, *byRoot[r])
	}
	return out
}

func rank(seed int64, key string) uint64 {
	h := sha256.Sum256([]byte(strconv.FormatInt(seed, 10) + "\x00" + key))
	return binary.BigEndian.Uint64(h[:8])
}
