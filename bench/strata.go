package bench

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"
)

// describe fills in what stratifies g: its file types, its tasks per
// template and its category. A file of no recorded type (a task journal
// from before types were recorded) counts as a type of its task's category.
func (g *group) describe(item func(int) Item) {
	g.templates = map[string]int{}
	g.types = g.types[:0]
	for _, m := range g.members {
		it := item(m)
		g.templates[it.Generator]++
		for _, f := range it.Files {
			t := cmp.Or(f.Type, "?"+it.Category)
			if !slices.Contains(g.types, t) {
				g.types = append(g.types, t)
			}
		}
	}
	sort.Strings(g.types)
	g.category = item(g.members[0]).Category
}

// stratify sorts the groups into strata: lists of group indexes in rank
// order, the strata in the order of their keys. A group reading files is
// in the stratum of its rarest type (the one the fewest groups read), so a
// type whose files are mostly paired with a commoner type's is still split
// as a type of its own; a group reading no file is in its category's.
func stratify(groups []group) [][]int {
	readers := map[string]int{}
	for _, g := range groups {
		for _, t := range g.types {
			readers[t]++
		}
	}
	by := map[string][]int{}
	for k, g := range groups {
		key := ""
		for _, t := range g.types { // sorted: a tie goes to the first name
			if key == "" || readers[t] < readers[key] {
				key = t
			}
		}
		if key == "" {
			key = "no file\x00" + g.category
		}
		by[key] = append(by[key], k)
	}
	var strata [][]int
	for _, key := range slices.Sorted(maps.Keys(by)) {
		st := by[key]
		slices.SortFunc(st, func(a, b int) int {
			return cmp.Or(cmp.Compare(groups[a].rank, groups[b].rank), cmp.Compare(groups[a].key, groups[b].key))
		})
		strata = append(strata, st)
	}
	return strata
}

// takeStratum marks in taken the groups of one stratum (indexes into
// groups, in rank order) that go to the benchmark: about fraction of the
// stratum's tasks. A group is taken only while it brings the benchmark
// nearer that share (it overshoots the target by less than it is missing).
// Groups that bring a template the benchmark lacks are taken first, and
// none takes the last training group of a template two or more groups
// use, so each template of a type reaches both sides where it can. A
// stratum of two or more groups has one in the benchmark even when its
// share rounds to no task, or every group overshoots it.
func takeStratum(groups []group, st []int, fraction float64, taken []bool) {
	total := 0
	uses := map[string]int{}    // template -> groups of the stratum that use it
	inBench := map[string]int{} // template -> of those, the ones taken
	for _, k := range st {
		total += len(groups[k].members)
		for t := range groups[k].templates {
			uses[t]++
		}
	}
	want := int(math.Round(fraction * float64(total)))
	took := 0
	take := func(k int) {
		taken[k] = true
		took += len(groups[k].members)
		for t := range groups[k].templates {
			inBench[t]++
		}
	}
	nearer := func(k int) bool {
		n := len(groups[k].members)
		return took < want && took+n-want < want-took
	}
	bringsTemplate := func(k int) bool {
		for t := range groups[k].templates {
			if uses[t] >= 2 && inBench[t] == 0 {
				return true
			}
		}
		return false
	}
	leavesTraining := func(k int) bool {
		for t := range groups[k].templates {
			if uses[t] >= 2 && inBench[t] == uses[t]-1 {
				return false
			}
		}
		return true
	}
	for _, k := range st {
		if nearer(k) && bringsTemplate(k) && leavesTraining(k) {
			take(k)
		}
	}
	for _, k := range st {
		if !taken[k] && nearer(k) && leavesTraining(k) {
			take(k)
		}
	}
	if took == 0 && fraction > 0 && len(st) > 1 {
		small := st[0]
		for _, k := range st[1:] {
			if len(groups[k].members) < len(groups[small].members) {
				small = k
			}
		}
		take(small)
	}
}

// balanceTypes gives every file type that two or more groups read a group
// on each side. Where a side has none, the smallest group reading the type
// (the first in rank order of equals) moves over from the other side,
// unless the move would leave another type it reads without a group on the
// side it leaves.
func balanceTypes(groups []group, taken []bool) {
	sides := map[string]*[2]int{} // type -> groups in training, in the benchmark
	for k, g := range groups {
		for _, t := range g.types {
			if sides[t] == nil {
				sides[t] = &[2]int{}
			}
			sides[t][side(taken[k])]++
		}
	}
	order := make([]int, len(groups))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(len(groups[a].members), len(groups[b].members)),
			cmp.Compare(groups[a].rank, groups[b].rank), cmp.Compare(groups[a].key, groups[b].key))
	})
	for _, t := range slices.Sorted(maps.Keys(sides)) {
		for _, lack := range []int{1, 0} {
			if s := sides[t]; s[lack] > 0 || s[1-lack] < 2 {
				continue
			}
			for _, k := range order {
				g := &groups[k]
				if side(taken[k]) == lack || !slices.Contains(g.types, t) || !canLeave(g, sides, 1-lack) {
					continue
				}
				taken[k] = lack == 1
				for _, u := range g.types {
					sides[u][1-lack]--
					sides[u][lack]++
				}
				break
			}
		}
	}
}

// canLeave reports whether g may leave side from without leaving a type it
// reads, one that two or more groups read, with no group there.
func canLeave(g *group, sides map[string]*[2]int, from int) bool {
	for _, u := range g.types {
		if s := sides[u]; s[from] < 2 && s[0]+s[1] >= 2 {
			return false
		}
	}
	return true
}

// side is 1 for the benchmark, 0 for training.
func side(inBench bool) int {
	if inBench {
		return 1
	}
	return 0
}
