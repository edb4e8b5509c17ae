package filters

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"synth/schemas"
)

func task(id, query string, files ...string) *schemas.Task {
	t := &schemas.Task{ID: id, Query: query}
	for _, f := range files {
		t.Files = append(t.Files, schemas.TaskFile{ID: f, Name: f + ".csv"})
	}
	return t
}

func TestDedupQueries(t *testing.T) {
	base := "Load the sales table, remove duplicate rows and rows with missing prices, then save the cleaned table to ./output/clean.csv"
	for _, tc := range []struct {
		name   string
		cfg    DedupConfig
		first  *schemas.Task
		second *schemas.Task
		reason string // "" keeps the second
	}{
		{"exact after normalising", DedupConfig{}, task("a", base, "f1"), task("b", "  LOAD the sales table; remove duplicate rows and rows with missing prices, then save the cleaned table to ./output/clean.csv!", "f1"), ReasonDuplicateQuery},
		{"near duplicate", DedupConfig{}, task("a", base, "f1"), task("b", base+" without the index", "f1"), ReasonNearDuplicateQuery},
		{"one word changed at a lower threshold", DedupConfig{NearThreshold: 0.7}, task("a", base, "f1"), task("b", strings.Replace(base, "cleaned", "tidy", 1), "f1"), ReasonNearDuplicateQuery},
		{"other inputs are kept", DedupConfig{}, task("a", base, "f1"), task("b", base, "f2"), ""},
		{"global scope ignores inputs", DedupConfig{Scope: ScopeGlobal}, task("a", base, "f1"), task("b", base, "f2"), ReasonDuplicateQuery},
		{"different task", DedupConfig{}, task("a", base, "f1"), task("b", "Plot monthly revenue as a line chart and save it to ./output/revenue.png", "f1"), ""},
		{"below threshold", DedupConfig{NearThreshold: 0.95}, task("a", base, "f1"), task("b", strings.Replace(base, "cleaned", "tidy", 1), "f1"), ""},
		{"off", DedupConfig{Off: true}, task("a", base, "f1"), task("b", base, "f1"), ""},
		{"chinese", DedupConfig{}, task("a", "请删除数据中的重复行并保存到输出文件夹中的新文件", "f1"), task("b", "请删除数据中的重复行并保存到输出文件夹中的新文件。", "f1"), ReasonDuplicateQuery},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDedup(Config{Dedup: tc.cfg})
			if ok, _, _ := d.Keep(tc.first); !ok {
				t.Fatal("first task dropped")
			}
			ok, reason, matched := d.Keep(tc.second)
			if reason != tc.reason || ok != (tc.reason == "") {
				t.Fatalf("Keep = %v %q %q, want reason %q", ok, reason, matched, tc.reason)
			}
			if !ok && !strings.Contains(matched, "task a") {
				t.Errorf("matched %q does not name task a", matched)
			}
		})
	}
}

func TestDedupNearRecall(t *testing.T) {
	// Each variant changes one word of a 30-word query: Jaccard of 3-word
	// shingles is about 0.82, above the default 0.8; LSH must find nearly all.
	var ws []string
	for i := range 30 {
		ws = append(ws, fmt.Sprintf("w%d", i))
	}
	found := 0
	for v := range 50 {
		d := NewDedup(Config{})
		d.Keep(task("orig", strings.Join(ws, " ")))
		mod := append([]string(nil), ws...)
		mod[v%30] = fmt.Sprintf("x%d", v)
		if ok, _, _ := d.Keep(task("v", strings.Join(mod, " "))); !ok {
			found++
		}
	}
	if found < 45 {
		t.Errorf("found %d of 50 near-duplicates, want at least 45", found)
	}
}

func TestDedupTrajectories(t *testing.T) {
	d := NewDedup(Config{})
	tr := func(id, last string) *schemas.Trajectory {
		return &schemas.Trajectory{ID: id, Messages: []schemas.Message{{Role: "user", Content: "q"}, {Role: "assistant", Content: last}}}
	}
	if ok, _, _ := d.KeepTrajectory(tr("a", "Finished: 1")); !ok {
		t.Fatal("first dropped")
	}
	if ok, reason, matched := d.KeepTrajectory(tr("b", "Finished: 1")); ok || reason != ReasonDuplicateTrajectory || matched != "trajectory a" {
		t.Errorf("repeat: %v %q %q", ok, reason, matched)
	}
	if ok, _, _ := d.KeepTrajectory(tr("c", "Finished: 2")); !ok {
		t.Error("different trajectory dropped")
	}
}

// Tasks of different scopes are never duplicates, so feeding a Dedup one
// scope at a time and forgetting between scopes drops exactly what one pass
// in the tasks' order does, while it holds one scope's tasks at a time.
func TestDedupScopeAtATime(t *testing.T) {
	base := "Load the sales table, remove duplicate rows and rows with missing prices, then save the cleaned table to ./output/clean.csv"
	var tasks []*schemas.Task
	for i := range 60 {
		q := base
		switch i % 4 {
		case 1:
			q = base + " without the index"
		case 2:
			q = fmt.Sprintf("Plot column %d of the table as a histogram", i%7)
		}
		tasks = append(tasks, task(fmt.Sprint(i), q, fmt.Sprintf("f%d", i%5)))
	}
	drops := func(ts []*schemas.Task, forget bool) map[string]string {
		d := NewDedup(Config{})
		out := map[string]string{}
		for k, tk := range ts {
			if forget && k > 0 && d.Scope(tk) != d.Scope(ts[k-1]) {
				d.Forget()
			}
			if ok, reason, matched := d.Keep(tk); !ok {
				out[tk.ID] = reason + " " + matched
			}
		}
		return out
	}
	want := drops(tasks, false)
	byScope := slices.Clone(tasks)
	d := NewDedup(Config{})
	slices.SortStableFunc(byScope, func(a, b *schemas.Task) int { return cmp.Compare(d.Scope(a), d.Scope(b)) })
	got := drops(byScope, true)
	if len(want) < 30 || !maps.Equal(got, want) {
		t.Errorf("one scope at a time dropped %d tasks, one pass %d (want the same, at least 30):\n%v\n%v", len(got), len(want), got, want)
	}
	// Forget must forget: the same task again after it is new.
	d.Keep(tasks[0])
	d.Forget()
	if ok, _, _ := d.Keep(tasks[0]); !ok {
		t.Error("a task was still remembered after Forget")
	}
}

func TestDedupTrajectoryIDsReadBack(t *testing.T) {
	d := NewDedup(Config{})
	var asked []int
	d.ForgetTrajectoryIDs(func(n int) (string, error) {
		asked = append(asked, n)
		return fmt.Sprintf("kept-%d", n), nil
	})
	tr := func(id, last string) *schemas.Trajectory {
		return &schemas.Trajectory{ID: id, Messages: []schemas.Message{{Role: "user", Content: "q"}, {Role: "assistant", Content: last}}}
	}
	d.KeepTrajectory(tr("a", "Finished: 1"))
	d.KeepTrajectory(tr("b", "Finished: 2"))
	if ok, _, matched := d.KeepTrajectory(tr("c", "Finished: 2")); ok || matched != "trajectory kept-1" {
		t.Errorf("repeat of the second kept: %v %q, want it to name kept-1", ok, matched)
	}
	if !slices.Equal(asked, []int{1}) {
		t.Errorf("ids read back: %v, want [1]", asked)
	}
}
