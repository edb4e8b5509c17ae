package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"synth/rundir"
	"synth/schemas"
)

// Run is an eval's results folder and its figures.
type Run struct {
	Dir     string
	Summary Summary
}

// LoadRun reads the summary.json of an eval's results folder (or the file
// itself).
func LoadRun(path string) (Run, error) {
	file := path
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		file = filepath.Join(path, rundir.EvalSummary)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return Run{}, fmt.Errorf("run %s: %w (give a results folder written by synth eval)", path, err)
	}
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return Run{}, fmt.Errorf("run %s: %s: %w", path, file, err)
	}
	return Run{Dir: path, Summary: s}, nil
}

// Leaderboard ranks eval runs, PyBench's table: pass rate per category and
// overall, and average turns.
type Leaderboard struct {
	Categories []string   `json:"categories"`
	Rows       []RowScore `json:"rows"`
	// Warnings say when the runs are not comparable (different benchmarks).
	Warnings []string `json:"warnings,omitempty"`
}

// RowScore is one run's line of the leaderboard.
type RowScore struct {
	Run       string `json:"run"`
	Model     string `json:"model"`
	Teacher   string `json:"teacher"`
	BenchHash string `json:"bench_hash"`
	Tasks     int    `json:"tasks"`
	Samples   int    `json:"samples"`
	// PassRate is over the scored tasks; PassRateAllTasks over every task,
	// a task lost to the infrastructure counting as failed. Runs rank by
	// the latter.
	PassRate         float64            `json:"pass_rate"`
	PassRateAllTasks float64            `json:"pass_rate_all_tasks"`
	Scored           int                `json:"scored_tasks"`
	PassAtK          map[string]float64 `json:"pass_at_k"`
	PerCategory      map[string]float64 `json:"per_category"`
	AvgTurns         float64            `json:"avg_turns"`
	AvgTurnsPyBench  float64            `json:"avg_turns_pybench"`
	CostPerTask      float64            `json:"cost_per_task"`
	InfraErrors      int                `json:"infra_errors"`
	// Unscored is the tasks without a rollout that counts: the pass rate
	// is over the other ones only.
	Unscored      int      `json:"unscored_tasks"`
	JudgePassRate *float64 `json:"judge_pass_rate,omitempty"`
	// AboveMoreScored names the runs ranked below this one that scored
	// more tasks: the table says so beside its rank.
	AboveMoreScored []string `json:"above_more_scored,omitempty"`
}

// Compare builds the leaderboard of runs, best pass rate over all tasks
// first (a task lost to the infrastructure counts as failed, so a run
// cannot rise by losing rollouts), ties by the pass rate over scored tasks,
// then by fewer PyBench turns, then by name. A run ranked above one that
// scored more tasks says so (AboveMoreScored).
func Compare(runs []Run) Leaderboard {
	var lb Leaderboard
	cats := map[string]Group{}
	hashes := map[string][]string{}
	for _, r := range runs {
		s := r.Summary
		row := RowScore{
			Run: r.Dir, Model: s.Model, Teacher: s.Teacher, BenchHash: s.BenchHash, Tasks: s.Tasks, Samples: s.Samples,
			PassRate: s.PassRate, PassAtK: s.PassAtK, PerCategory: map[string]float64{},
			AvgTurns: s.AvgTurns, AvgTurnsPyBench: s.AvgTurnsPyBench, CostPerTask: s.CostPerTask, InfraErrors: s.InfraErrors,
			Unscored: s.Tasks - s.Scored, Scored: s.Scored,
		}
		if s.Tasks > 0 { // pass@1 summed over scored tasks, over all of them
			row.PassRateAllTasks = s.PassRate * float64(s.Scored) / float64(s.Tasks)
		}
		for c, g := range s.PerCategory {
			row.PerCategory[c] = g.PassRate
			cats[c] = g
		}
		if j := s.Judge; j != nil && j.Mode != "pairwise" && j.Judged > 0 {
			p := j.PassRate
			row.JudgePassRate = &p
		}
		hashes[s.BenchHash] = append(hashes[s.BenchHash], r.Dir)
		lb.Rows = append(lb.Rows, row)
	}
	lb.Categories = sortedGroupKeys(cats, schemas.Categories)
	sort.SliceStable(lb.Rows, func(i, j int) bool {
		a, b := lb.Rows[i], lb.Rows[j]
		if a.PassRateAllTasks != b.PassRateAllTasks {
			return a.PassRateAllTasks > b.PassRateAllTasks
		}
		if a.PassRate != b.PassRate {
			return a.PassRate > b.PassRate
		}
		if a.AvgTurnsPyBench != b.AvgTurnsPyBench {
			return a.AvgTurnsPyBench < b.AvgTurnsPyBench
		}
		return a.Run < b.Run
	})
	for i := range lb.Rows {
		for _, b := range lb.Rows[i+1:] {
			if b.Scored > lb.Rows[i].Scored {
				lb.Rows[i].AboveMoreScored = append(lb.Rows[i].AboveMoreScored, b.Run)
			}
		}
	}
	if len(hashes) > 1 {
		var parts []string
		for h, dirs := range hashes {
			parts = append(parts, fmt.Sprintf("%s: %s", short(h), strings.Join(dirs, ", ")))
		}
		sort.Strings(parts)
		lb.Warnings = append(lb.Warnings, "the runs are on different benchmarks (by content hash): "+strings.Join(parts, "; "))
	}
	return lb
}

// Markdown renders the leaderboard as a table with a column per category.
func (lb Leaderboard) Markdown() string {
	var b strings.Builder
	b.WriteString("| rank | model | run |")
	for _, c := range lb.Categories {
		fmt.Fprintf(&b, " %s |", CategoryTitle(c))
	}
	b.WriteString(" pass rate (all tasks) | pass rate (scored) | scored | avg turns (PyBench) | avg turns (passed) | cost/task | infra |\n|---|---|---|")
	for range lb.Categories {
		b.WriteString("---:|")
	}
	b.WriteString("---:|---:|---:|---:|---:|---:|---:|\n")
	for i, r := range lb.Rows {
		name := r.Model
		if name == "" {
			name = r.Teacher
		}
		rank := fmt.Sprint(i + 1)
		if len(r.AboveMoreScored) > 0 {
			rank += " (on fewer scored tasks than a run below)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |", rank, cell(name, 60), cell(r.Run, 60))
		for _, c := range lb.Categories {
			if v, ok := r.PerCategory[c]; ok {
				fmt.Fprintf(&b, " %s |", pct(v))
			} else {
				b.WriteString(" – |")
			}
		}
		scored := fmt.Sprintf("%d/%d", r.Scored, r.Tasks)
		if r.Unscored > 0 {
			scored += fmt.Sprintf(" (%d of %d tasks unscored)", r.Unscored, r.Tasks)
		}
		fmt.Fprintf(&b, " %s | %s | %s | %.2f | %.2f | $%.4f | %d |\n", pct(r.PassRateAllTasks), pct(r.PassRate), scored, r.AvgTurnsPyBench, r.AvgTurns, r.CostPerTask, r.InfraErrors)
	}
	for _, r := range lb.Rows {
		if r.Unscored > 0 {
			fmt.Fprintf(&b, "\nWarning: %s has %d of %d tasks unscored (infrastructure failures); its scored pass rate covers the rest only, its pass rate over all tasks counts them as failed: rerun its eval\n", r.Run, r.Unscored, r.Tasks)
		}
		if len(r.AboveMoreScored) > 0 {
			fmt.Fprintf(&b, "\nWarning: %s ranks above %s on fewer scored tasks (%d of %d)\n", r.Run, strings.Join(r.AboveMoreScored, ", "), r.Scored, r.Tasks)
		}
	}
	for _, w := range lb.Warnings {
		fmt.Fprintf(&b, "\nWarning: %s\n", w)
	}
	return b.String()
}
