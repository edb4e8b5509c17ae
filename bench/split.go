package bench

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"strings"

	"synth/schemas"
)

// Split divides tasks between the benchmark and training. It is
// deterministic for a seed and disjoint by input file: tasks that share a
// file always land on the same side, so no benchmark input ever feeds a
// training trajectory. It is stratified by file type and, within a type, by
// template: each type gives about fraction of its tasks, the benchmark takes
// a file of each template of the type while it can, and a type read by two
// or more groups of files has files on both sides (tasks that read no file
// are stratified by category and template alike). The benchmark holds one
// language of each task: of twins (the same task asked in English and in
// Chinese, see TwinKey) one, picked by the seed, stays and the others are
// dropped from both sides, since they read the benchmark's files. A task
// reading several files whose groups fell on both sides is dropped too (see
// groupBySharedFiles). So len(benchmark)+len(train) is len(tasks) less the
// dropped tasks. Both results keep the input order.
func Split(tasks []schemas.Task, fraction float64, seed int64) (benchmark, train []schemas.Task) {
	inBench, dropped := Place(len(tasks), func(i int) Item { return ItemOf(&tasks[i]) }, fraction, seed,
		func(i int) string { return TwinKey(&tasks[i]) })
	for i := range tasks {
		switch {
		case dropped[i]:
		case inBench[i]:
			benchmark = append(benchmark, tasks[i])
		default:
			train = append(train, tasks[i])
		}
	}
	return benchmark, train
}

// Item is what the split reads of a task: its id, category, template (or
// writer) and input files, whose types stratify the split.
type Item struct {
	ID, Category string
	Generator    string
	Files        []schemas.TaskFile
}

// ItemOf is t as the split reads it.
func ItemOf(t *schemas.Task) Item {
	return Item{ID: t.ID, Category: t.Category, Generator: t.Generator, Files: t.Files}
}

// Place is the split of n tasks, task i read as item(i), for a caller that
// holds its tasks in a form of its own: inBench[i] says task i goes to the
// benchmark, dropped[i] that it goes to neither side (see Split). twinKey(i)
// is TwinKey of task i; it is asked only of the tasks the benchmark takes,
// so a caller that holds its tasks without their checks and outputs reads
// only those back whole.
func Place(n int, item func(i int) Item, fraction float64, seed int64, twinKey func(i int) string) (inBench, dropped []bool) {
	groups, bridges := groupBySharedFiles(n, item)
	for k := range groups {
		groups[k].rank = rank(seed, groups[k].key)
		groups[k].describe(item)
	}
	taken := make([]bool, len(groups))
	for _, st := range stratify(groups) {
		takeStratum(groups, st, fraction, taken)
	}
	if fraction > 0 {
		balanceTypes(groups, taken)
	}
	inBench = make([]bool, n)
	for k, g := range groups {
		for _, m := range g.members {
			inBench[m] = taken[k]
		}
	}
	dropped = make([]bool, n)
	placeBridges(n, item, bridges, inBench, dropped)
	for i, d := range twinsToDrop(n, inBench, seed, twinKey) {
		dropped[i] = dropped[i] || d
	}
	return inBench, dropped
}

// TwinKey is what the languages of one task share: the template (or
// writer), the input files, the checks and the outputs. Tasks without a
// language have no twins.
func TwinKey(t *schemas.Task) string {
	if t.Lang == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(t.Generator)
	for _, f := range t.Files {
		b.WriteString("\x00" + f.ID)
	}
	checks, _ := json.Marshal(t.Checks)
	b.WriteString("\x00")
	b.Write(checks)
	b.WriteString("\x00" + strings.Join(t.Outputs, "\x00"))
	return b.String()
}

// twinsToDrop marks the benchmark tasks that are another language of a
// benchmark task kept: per twin set the seed picks one language.
func twinsToDrop(n int, inBench []bool, seed int64, twinKey func(int) string) []bool {
	sets := map[string][]int{}
	var keys []string
	for i := range n {
		if !inBench[i] {
			continue
		}
		k := twinKey(i)
		if k == "" {
			continue
		}
		if _, ok := sets[k]; !ok {
			keys = append(keys, k)
		}
		sets[k] = append(sets[k], i)
	}
	drop := make([]bool, n)
	for _, k := range keys {
		members := sets[k]
		if len(members) < 2 {
			continue
		}
		keep := members[rank(seed, "lang\x00"+k)%uint64(len(members))]
		for _, m := range members {
			drop[m] = m != keep
		}
	}
	return drop
}

// maxGroupFiles caps how many input files a task that reads several files
// may chain into one group. Without it, templates that pair files (image
// concatenation, joins) link every image into one group that can only go to
// one side.
const maxGroupFiles = 4

// group is a set of tasks connected by shared input files.
type group struct {
	members []int  // task indexes
	key     string // the smallest file id or task id in the group: stable across runs
	rank    uint64
	// What stratifies it (see describe): the types of the files its tasks
	// read, sorted (none when they read no file), its tasks per template,
	// and the category of its first task.
	types     []string
	templates map[string]int
	category  string
}

// groupBySharedFiles groups tasks by the files they read. Tasks reading
// one file (or none) are grouped first; a task reading several joins their
// groups while the result reads at most maxGroupFiles files and at most
// half the files of each type (typeShare), and is otherwise a bridge,
// returned apart, whose side its files decide.
func groupBySharedFiles(n int, item func(int) Item) (groups []group, bridges []int) {
	parent := map[string]string{}
	nfiles := map[string]int{}
	fileType, typeFiles := map[string]string{}, map[string]int{}
	for i := range n {
		for _, f := range item(i).Files {
			if _, ok := fileType[f.ID]; !ok {
				fileType[f.ID] = f.Type
				typeFiles[f.Type]++
			}
		}
	}
	ntypes := map[string]map[string]int{} // a root's files per type
	var find func(string) string
	find = func(f string) string {
		p, ok := parent[f]
		if !ok {
			parent[f], nfiles[f] = f, 1
			ntypes[f] = map[string]int{fileType[f]: 1}
			return f
		}
		if p != f {
			parent[f] = find(p)
		}
		return parent[f]
	}
	var multi []int
	for i := range n {
		t := item(i)
		if len(t.Files) > 1 {
			multi = append(multi, i)
			continue
		}
		if len(t.Files) == 1 {
			find(t.Files[0].ID)
		}
	}
	isBridge := map[int]bool{}
	for _, i := range multi {
		roots := map[string]bool{}
		n := 0
		perType := map[string]int{}
		for _, f := range item(i).Files {
			if r := find(f.ID); !roots[r] {
				roots[r] = true
				n += nfiles[r]
				for t, k := range ntypes[r] {
					perType[t] += k
				}
			}
		}
		if len(roots) > 1 && (n > maxGroupFiles || overShare(perType, typeFiles)) {
			isBridge[i] = true
			bridges = append(bridges, i)
			continue
		}
		first := find(item(i).Files[0].ID)
		for r := range roots {
			if r != first {
				parent[r] = first
				nfiles[first] += nfiles[r]
				for t, k := range ntypes[r] {
					ntypes[first][t] += k
				}
			}
		}
	}
	byRoot := map[string]*group{}
	var order []string
	for i := range n {
		if isBridge[i] {
			continue
		}
		t := item(i)
		root := "task\x00" + t.ID
		if len(t.Files) > 0 {
			root = find(t.Files[0].ID)
		}
		g, ok := byRoot[root]
		if !ok {
			g = &group{key: "\xff"}
			byRoot[root] = g
			order = append(order, root)
		}
		g.members = append(g.members, i)
		k := t.ID
		if len(t.Files) > 0 {
			k = t.Files[0].ID
		}
		g.key = min(g.key, k)
	}
	for _, r := range order {
		groups = append(groups, *byRoot[r])
	}
	return groups, bridges
}

// overShare reports a group that would read more than half the files of a
// type (one file of a type of two or three): then no other group reads that
// type, and it cannot reach both sides. Pairing templates (image.concat over
// every two images) chain a type's files into one group otherwise.
func overShare(perType, typeFiles map[string]int) bool {
	for t, k := range perType {
		if k > max(1, typeFiles[t]/2) {
			return true
		}
	}
	return false
}

// placeBridges puts each bridge task on the side of its files when they
// are all on one side (a file no group reads takes the side of the first
// bridge that reads it), and drops it otherwise.
func placeBridges(n int, item func(int) Item, bridges []int, inBench, drop []bool) {
	isBridge := map[int]bool{}
	for _, i := range bridges {
		isBridge[i] = true
	}
	side := map[string]bool{} // file id -> in the benchmark
	for i := range n {
		if isBridge[i] {
			continue
		}
		for _, f := range item(i).Files {
			side[f.ID] = inBench[i]
		}
	}
	for _, i := range bridges {
		bench, train := false, false
		for _, f := range item(i).Files {
			if b, ok := side[f.ID]; ok {
				bench, train = bench || b, train || !b
			}
		}
		if bench && train {
			drop[i] = true
			continue
		}
		inBench[i] = bench
		for _, f := range item(i).Files {
			side[f.ID] = bench
		}
	}
}

func rank(seed int64, key string) uint64 {
	h := sha256.Sum256([]byte(strconv.FormatInt(seed, 10) + "\x00" + key))
	return binary.BigEndian.Uint64(h[:8])
}
