package bench

import (
	"sort"
	"strconv"

	"synth/schemas"
)

// Result is one line of an eval's results.jsonl: one rollout of a benchmark
// task, its verdict, and how it counts. Passed, Failure and Turns repeat
// what the trajectory holds so that scripts need not dig for them.
type Result struct {
	ID          string   `json:"id"` // the trajectory id
	Index       string   `json:"index"`
	TaskID      string   `json:"task_id"`
	Category    string   `json:"category"`
	Subcategory string   `json:"subcategory"`
	FileTypes   []string `json:"file_types"`
	Sample      int      `json:"sample"`
	Passed      bool     `json:"passed"`
	// Failure is a taxonomy word (schemas.Fail…), FailNotRecorded, or empty
	// when Passed.
	Failure string `json:"failure,omitempty"`
	// Infra marks a rollout whose infrastructure failed on every attempt
	// (teacher endpoint, sandbox): it is reported apart and never counts as
	// a model failure.
	Infra    bool                `json:"infra,omitempty"`
	Attempts int                 `json:"attempts"`
	Turns    int                 `json:"turns"`
	Judge    *Judgement          `json:"judge,omitempty"`
	Traj     *schemas.Trajectory `json:"trajectory"`
}

// FailNotRecorded is the failure of a replayed task that the trajectory file
// has no recording of: the harness that made the file produced nothing for it.
const FailNotRecorded = "not_recorded"

// Judgement is an LLM judge's opinion of a rollout, kept beside the unit
// tests' verdict and never in place of it.
type Judgement struct {
	Mode  string `json:"mode"` // score or pairwise
	Model string `json:"model"`
	// score mode: pass/fail and 1–10 scores of the reasoning and the code.
	Pass        *bool `json:"pass,omitempty"`
	Reasoning   int   `json:"reasoning,omitempty"`
	CodeQuality int   `json:"code_quality,omitempty"`
	// pairwise mode: win, tie or lose against the baseline run.
	Outcome     string `json:"outcome,omitempty"`
	Explanation string `json:"explanation,omitempty"`
	// Error is why the judge gave no opinion; such a rollout is left out of
	// the judge's figures.
	Error string `json:"error,omitempty"`
}

// Pairwise outcomes.
const (
	Win  = "win"
	Tie  = "tie"
	Lose = "lose"
)

// ResultOf fills a Result's summary fields from its task and trajectory.
func ResultOf(task *schemas.Task, traj *schemas.Trajectory, attempts int) Result {
	r := Result{
		ID: traj.ID, Index: task.Index, TaskID: task.ID, Category: task.Category, Subcategory: task.Subcategory,
		FileTypes: FileTypes(task), Sample: traj.Sample, Attempts: attempts, Turns: Turns(traj), Traj: traj,
	}
	if v := traj.Verdict; v != nil {
		r.Passed, r.Failure = v.Passed, v.Failure
	}
	r.Infra = !r.Passed && IsInfraFailure(r.Failure)
	return r
}

// IsInfraFailure reports whether a failure word blames the infrastructure
// rather than the model: the teacher's endpoint, the sandbox, or the budget.
func IsInfraFailure(failure string) bool {
	switch failure {
	case schemas.FailTeacherError, schemas.FailSandboxCrash, schemas.FailBudget, "infra_error":
		return true
	}
	return false
}

// Turns is the number of assistant turns of a trajectory, the final
// "Finished:" turn included, as PyBench counts them.
func Turns(t *schemas.Trajectory) int {
	n := 0
	for _, m := range t.Messages {
		if m.Role == schemas.RoleAssistant {
			n++
		}
	}
	return n
}

// NoFile is the file type of a task without input files.
const NoFile = "none"

// FileTypes lists a task's distinct input file types, in order; NoFile for
// a task without files. A file without a type counts by its extension.
func FileTypes(t *schemas.Task) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range t.Files {
		typ := f.Type
		if typ == "" {
			typ = extOf(f.Name)
		}
		if !seen[typ] {
			seen[typ] = true
			out = append(out, typ)
		}
	}
	if len(out) == 0 {
		out = []string{NoFile}
	}
	return out
}

func extOf(name string) string {
	for i := len(name) - 1; i >= 0 && name[i] != '/'; i-- {
		if name[i] == '.' {
			return name[i+1:]
		}
	}
	return "unknown"
}

// Group is the figures of a set of tasks: the whole benchmark, a category
// or a file type.
type Group struct {
	// Tasks in the group; Scored of them have at least one rollout that
	// counts (not an infrastructure failure).
	Tasks  int `json:"tasks"`
	Scored int `json:"scored"`
	// Rollouts that count, and how many of them passed.
	Rollouts int `json:"rollouts"`
	Passed   int `json:"passed"`
	// PassRate is pass@1: the mean over scored tasks of the share of their
	// rollouts that passed (with one sample per task, passed / scored).
	PassRate float64 `json:"pass_rate"`
	// PassRateAllTasks is pass@1 over every task of the group: a task
	// without a rollout that counts (every one an infrastructure failure)
	// counts as failed. It equals PassRate when every task is scored, and
	// bounds what a run that loses rollouts to the infrastructure can claim.
	PassRateAllTasks float64 `json:"pass_rate_all_tasks"`
	// PassAtK holds pass@k for k = 1 and the samples per task, by the
	// unbiased estimator 1 - C(n-c, k) / C(n, k) averaged over scored tasks
	// (a task with fewer than k counted rollouts uses k = n).
	PassAtK map[string]float64 `json:"pass_at_k"`
	// AvgTurns is the mean turns of passed rollouts; AvgTurnsPyBench the
	// mean over all counted rollouts with a failed one counted as the turn
	// cap, as PyBench reports it.
	AvgTurns        float64 `json:"avg_turns"`
	AvgTurnsPyBench float64 `json:"avg_turns_pybench"`
	InfraErrors     int     `json:"infra_errors"`
}

// Summary is summary.json: an eval's figures for scripts and reports.
type Summary struct {
	Model     string `json:"model"`
	Teacher   string `json:"teacher"` // the teacher kind: openai, reference, empty, replay
	Bench     string `json:"bench"`
	BenchHash string `json:"bench_hash"`
	Samples   int    `json:"samples"` // per task (k)
	TurnCap   int    `json:"turn_cap"`
	// Scoring is the mode that made the verdicts: ScoringStrict or
	// ScoringPyBench.
	Scoring string `json:"scoring"`
	Group
	PerCategory map[string]Group `json:"per_category"`
	PerFileType map[string]Group `json:"per_file_type"`
	// Tokens and cost over every rollout, infrastructure failures included,
	// and per task (the total divided by the tasks).
	Tokens        int64   `json:"tokens"`
	CostUSD       float64 `json:"cost_usd"`
	TokensPerTask float64 `json:"tokens_per_task"`
	CostPerTask   float64 `json:"cost_per_task"`
	// Failures counts the failed rollouts that count, by taxonomy word;
	// Infra the infrastructure failures, by word, which do not count.
	Failures map[string]int `json:"failures"`
	Infra    map[string]int `json:"infra"`
	Judge    *JudgeSummary  `json:"judge,omitempty"`
	// PerBand holds the figures per difficulty band (DifficultyFile), and
	// Bands where the bands came from, when the benchmark has them.
	PerBand map[string]Group `json:"per_band,omitempty"`
	Bands   string           `json:"bands,omitempty"`
	// Variant compares the benchmark with its variant split, when it has
	// one and the eval ran it.
	Variant *VariantScore `json:"variant,omitempty"`
}

// ScoreOptions are the eval's settings that the figures depend on.
type ScoreOptions struct {
	Samples int // per task; 0: the most samples any task has
	TurnCap int // the rollouts' turn cap, counted for failed rollouts in AvgTurnsPyBench
}

// Score computes an eval's figures from its results. Every task of tasks
// counts, with or without results; results of tasks not in tasks are
// ignored. A result whose id appears twice counts once, the later one.
func Score(tasks []schemas.Task, results []Result, opts ScoreOptions) Summary {
	byTask := map[string][]Result{}
	seen := map[string]int{}
	for _, r := range results {
		if i, ok := seen[r.ID]; ok && r.ID != "" {
			rs := byTask[r.TaskID]
			rs[i] = r
			continue
		}
		seen[r.ID] = len(byTask[r.TaskID])
		byTask[r.TaskID] = append(byTask[r.TaskID], r)
	}
	if opts.Samples <= 0 {
		for _, rs := range byTask {
			opts.Samples = max(opts.Samples, len(rs))
		}
		opts.Samples = max(opts.Samples, 1)
	}
	s := Summary{Samples: opts.Samples, TurnCap: opts.TurnCap, PerCategory: map[string]Group{}, PerFileType: map[string]Group{},
		Failures: map[string]int{}, Infra: map[string]int{}}
	all := newAcc(opts)
	cats, types := map[string]*acc{}, map[string]*acc{}
	for i := range tasks {
		t := &tasks[i]
		rs := byTask[t.ID]
		all.add(rs)
		accOf(cats, t.Category, opts).add(rs)
		for _, ft := range FileTypes(t) {
			accOf(types, ft, opts).add(rs)
		}
		for _, r := range rs {
			if r.Traj != nil {
				s.Tokens += r.Traj.Usage.PromptTokens + r.Traj.Usage.CompletionTokens
				s.CostUSD += r.Traj.Usage.CostUSD
			}
			switch {
			case r.Infra:
				s.Infra[r.Failure]++
			case !r.Passed:
				s.Failures[r.Failure]++
			}
		}
	}
	s.Group = all.group()
	for k, a := range cats {
		s.PerCategory[k] = a.group()
	}
	for k, a := range types {
		s.PerFileType[k] = a.group()
	}
	if len(tasks) > 0 {
		s.TokensPerTask = float64(s.Tokens) / float64(len(tasks))
		s.CostPerTask = s.CostUSD / float64(len(tasks))
	}
	s.Judge = scoreJudge(tasks, byTask)
	return s
}

// acc accumulates a Group.
type acc struct {
	opts                      ScoreOptions
	g                         Group
	rate1, ratek              float64
	passTurns, pybTurns, pybN int
}

func newAcc(opts ScoreOptions) *acc { return &acc{opts: opts} }

func accOf(m map[string]*acc, key string, opts ScoreOptions) *acc {
	a, ok := m[key]
	if !ok {
		a = newAcc(opts)
		m[key] = a
	}
	return a
}

func (a *acc) add(rs []Result) {
	a.g.Tasks++
	n, c := 0, 0
	for _, r := range rs {
		if r.Infra {
			a.g.InfraErrors++
			continue
		}
		n++
		a.pybN++
		if r.Passed {
			c++
			a.passTurns += r.Turns
			a.pybTurns += r.Turns
		} else {
			a.pybTurns += max(a.opts.TurnCap, r.Turns)
		}
	}
	if n == 0 {
		return
	}
	a.g.Scored++
	a.g.Rollouts += n
	a.g.Passed += c
	a.rate1 += float64(c) / float64(n)
	a.ratek += PassAtK(n, c, a.opts.Samples)
}

func (a *acc) group() Group {
	g := a.g
	g.PassAtK = map[string]float64{"1": 0}
	if g.Tasks > 0 {
		g.PassRateAllTasks = a.rate1 / float64(g.Tasks)
	}
	if g.Scored > 0 {
		g.PassRate = a.rate1 / float64(g.Scored)
		g.PassAtK["1"] = g.PassRate
		if a.opts.Samples > 1 {
			g.PassAtK[strconv.Itoa(a.opts.Samples)] = a.ratek / float64(g.Scored)
		}
	} else if a.opts.Samples > 1 {
		g.PassAtK[strconv.Itoa(a.opts.Samples)] = 0
	}
	if g.Passed > 0 {
		g.AvgTurns = float64(a.passTurns) / float64(g.Passed)
	}
	if a.pybN > 0 {
		g.AvgTurnsPyBench = float64(a.pybTurns) / float64(a.pybN)
	}
	return g
}

// PassAtK is the unbiased estimator of pass@k for one task with n rollouts
// of which c passed: 1 - C(n-c, k) / C(n, k), computed as a product so that
// it stays exact for large n. With n < k it uses k = n.
func PassAtK(n, c, k int) float64 {
	if n <= 0 {
		return 0
	}
	k = min(k, n)
	if n-c < k {
		return 1
	}
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// sortedGroupKeys orders the keys of per-category figures by PyBench's
// category order, then the rest alphabetically.
func sortedGroupKeys(m map[string]Group, order []string) []string {
	rank := map[string]int{}
	for i, k := range order {
		rank[k] = i + 1
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := rank[keys[i]], rank[keys[j]]
		switch {
		case ri > 0 && rj > 0:
			return ri < rj
		case ri > 0 || rj > 0:
			return ri > 0
		}
		return keys[i] < keys[j]
	})
	return keys
}
