package bench

import (
	"math"
	"strings"
	"testing"

	"synth/schemas"
)

func TestPassAtK(t *testing.T) {
	cases := []struct {
		n, c, k int
		want    float64
	}{
		{1, 1, 1, 1}, {1, 0, 1, 0}, {2, 1, 1, 0.5}, {2, 1, 2, 1},
		{5, 1, 1, 0.2}, {5, 2, 3, 1 - 1.0/10}, // C(3,3)/C(5,3) = 1/10
		{10, 3, 5, 1 - 21.0/252},   // C(7,5)/C(10,5)
		{3, 0, 5, 0}, {3, 1, 5, 1}, // fewer rollouts than k: k = n
		{0, 0, 1, 0},
	}
	for _, tc := range cases {
		if got := PassAtK(tc.n, tc.c, tc.k); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("PassAtK(%d, %d, %d) = %v, want %v", tc.n, tc.c, tc.k, got, tc.want)
		}
	}
}

func scoreTasks() []schemas.Task {
	return []schemas.Task{
		{ID: "a", Index: "1", Category: schemas.CategoryData, Files: []schemas.TaskFile{{Name: "x.csv", Type: "csv"}}},
		{ID: "b", Index: "2", Category: schemas.CategoryData, Files: []schemas.TaskFile{{Name: "y.xlsx", Type: "xlsx"}, {Name: "z.csv"}}},
		{ID: "c", Index: "3", Category: schemas.CategoryMath},
		{ID: "d", Index: "4", Category: schemas.CategoryText, Files: []schemas.TaskFile{{Name: "t.txt", Type: "txt"}}},
	}
}

func res(task string, sample int, passed bool, failure string, turns int, tokens int64) Result {
	r := Result{ID: task + string(rune('0'+sample)), TaskID: task, Sample: sample, Passed: passed, Failure: failure, Turns: turns,
		Traj: &schemas.Trajectory{Usage: schemas.Usage{PromptTokens: tokens, CostUSD: float64(tokens) / 1000}}}
	r.Infra = !passed && IsInfraFailure(failure)
	return r
}

func TestScore(t *testing.T) {
	results := []Result{
		res("a", 0, true, "", 3, 100), res("a", 1, true, "", 5, 100),
		res("b", 0, false, schemas.FailCheck, 2, 100), res("b", 1, true, "", 4, 100),
		res("c", 0, false, schemas.FailMaxTurns, 10, 100), res("c", 1, false, schemas.FailTeacherError, 0, 0),
		res("d", 0, false, schemas.FailTeacherError, 0, 0), res("d", 1, false, schemas.FailSandboxCrash, 0, 0),
	}
	s := Score(scoreTasks(), results, ScoreOptions{Samples: 2, TurnCap: 10})
	// Task d has only infra failures: not scored. a: 2/2, b: 1/2, c: 0/1.
	if s.Tasks != 4 || s.Scored != 3 || s.Rollouts != 5 || s.Passed != 3 || s.InfraErrors != 3 {
		t.Fatalf("counts %+v", s.Group)
	}
	if want := (1 + 0.5 + 0) / 3; math.Abs(s.PassRate-want) > 1e-12 || s.PassAtK["1"] != s.PassRate {
		t.Errorf("pass rate %v, want %v", s.PassRate, want)
	}
	if want := (1 + 1 + 0) / 3.0; math.Abs(s.PassAtK["2"]-want) > 1e-12 {
		t.Errorf("pass@2 %v, want %v", s.PassAtK["2"], want)
	}
	if want := (3 + 5 + 4) / 3.0; math.Abs(s.AvgTurns-want) > 1e-12 {
		t.Errorf("avg turns %v, want %v", s.AvgTurns, want)
	}
	if want := (3 + 5 + 10 + 4 + 10) / 5.0; math.Abs(s.AvgTurnsPyBench-want) > 1e-12 {
		t.Errorf("avg turns PyBench %v, want %v", s.AvgTurnsPyBench, want)
	}
	if s.Failures[schemas.FailCheck] != 1 || s.Failures[schemas.FailMaxTurns] != 1 || len(s.Failures) != 2 {
		t.Errorf("failures %v", s.Failures)
	}
	if s.Infra[schemas.FailTeacherError] != 2 || s.Infra[schemas.FailSandboxCrash] != 1 {
		t.Errorf("infra %v", s.Infra)
	}
	if s.Tokens != 500 || s.TokensPerTask != 125 || math.Abs(s.CostUSD-0.5) > 1e-12 {
		t.Errorf("tokens %d (%v per task), cost %v", s.Tokens, s.TokensPerTask, s.CostUSD)
	}
	data := s.PerCategory[schemas.CategoryData]
	if data.Tasks != 2 || math.Abs(data.PassRate-0.75) > 1e-12 || data.PassAtK["2"] != 1 {
		t.Errorf("data analysis %+v", data)
	}
	if g := s.PerCategory[schemas.CategoryText]; g.Scored != 0 || g.PassRate != 0 || g.InfraErrors != 2 {
		t.Errorf("text analysis %+v", g)
	}
	// Task b has an xlsx and an untyped csv: it counts under both.
	if g := s.PerFileType["csv"]; g.Tasks != 2 || math.Abs(g.PassRate-0.75) > 1e-12 {
		t.Errorf("csv %+v", g)
	}
	if g := s.PerFileType[NoFile]; g.Tasks != 1 || g.PassRate != 0 {
		t.Errorf("no file %+v", g)
	}
}

func TestScoreLaterResultWins(t *testing.T) {
	first := res("a", 0, false, schemas.FailTeacherError, 0, 0)
	again := res("a", 0, true, "", 2, 10)
	s := Score(scoreTasks()[:1], []Result{first, again}, ScoreOptions{TurnCap: 10})
	if s.Rollouts != 1 || s.Passed != 1 || s.InfraErrors != 0 || s.Samples != 1 {
		t.Errorf("%+v", s.Group)
	}
}

func TestScoreJudge(t *testing.T) {
	yes, no := true, false
	a := res("a", 0, true, "", 2, 0)
	a.Judge = &Judgement{Mode: "score", Model: "j", Pass: &yes, Reasoning: 8, CodeQuality: 6}
	b := res("b", 0, false, schemas.FailCheck, 2, 0)
	b.Judge = &Judgement{Mode: "score", Model: "j", Pass: &yes, Reasoning: 4, CodeQuality: 2}
	c := res("c", 0, false, schemas.FailCheck, 2, 0)
	c.Judge = &Judgement{Mode: "score", Model: "j", Pass: &no, Reasoning: 3, CodeQuality: 4}
	d := res("d", 0, true, "", 2, 0)
	d.Judge = &Judgement{Mode: "score", Model: "j", Error: "timeout"}
	s := Score(scoreTasks(), []Result{a, b, c, d}, ScoreOptions{TurnCap: 10})
	j := s.Judge
	if j == nil || j.Judged != 3 || j.Errors != 1 || math.Abs(j.PassRate-2.0/3) > 1e-12 || math.Abs(j.Agreement-2.0/3) > 1e-12 || j.AvgReasoning != 5 || j.AvgCodeQuality != 4 {
		t.Fatalf("judge %+v", j)
	}
	if s.PassRate != 0.5 {
		t.Errorf("the judge changed the unit-test pass rate: %v", s.PassRate)
	}
}

func TestReportAndCompare(t *testing.T) {
	tasks := scoreTasks()
	results := []Result{res("a", 0, true, "", 3, 100), res("b", 0, false, schemas.FailCheck, 2, 100),
		res("c", 0, true, "", 2, 100), res("d", 0, false, schemas.FailTeacherError, 0, 0)}
	results[1].Index, results[1].Category = "2", schemas.CategoryData
	results[1].Traj.Verdict = &schemas.Verdict{Checks: []schemas.CheckResult{{Kind: "table", OK: false, Message: "output/x.csv | missing"}}}
	results[3].Index, results[3].Traj.Error = "4", "turn 1: endpoint down"
	s := Score(tasks, results, ScoreOptions{TurnCap: 10})
	s.Model, s.Teacher, s.BenchHash = "m1", "openai", "h1"
	md := Report(s, tasks, results)
	for _, want := range []string{"# Eval: m1", "| pass rate (pass@1) | 66.7% (2/3 rollouts) |", "| Data Analysis | 2 | 50.0% |",
		"| Complex Math | 1 | 100.0% |", "| check_failed | 1 |", "## Infrastructure failures", "| 4 | 0 | turn 1: endpoint down |",
		`| 2 | data_analysis | 0 | 2 | check_failed | table: output/x.csv \| missing |`} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if Report(s, tasks, results) != md {
		t.Error("the report is not deterministic")
	}

	worse := s
	worse.Model, worse.Group.PassRate, worse.PerCategory = "m0", 0.25, map[string]Group{schemas.CategoryData: {PassRate: 0.25}}
	other := s
	other.Model, other.BenchHash = "m2", "h2"
	lb := Compare([]Run{{Dir: "r/m0", Summary: worse}, {Dir: "r/m1", Summary: s}, {Dir: "r/m2", Summary: other}})
	if lb.Rows[2].Model != "m0" || len(lb.Warnings) != 1 {
		t.Fatalf("leaderboard %+v", lb)
	}
	want := []string{"Data Analysis", "Text Analysis", "Complex Math"}
	for i, c := range lb.Categories {
		if CategoryTitle(c) != want[i] {
			t.Errorf("categories %v, want %v in PyBench's order", lb.Categories, want)
		}
	}
	md = lb.Markdown()
	// One of the four tasks has only an infrastructure failure: unscored,
	// and marked so.
	if !strings.Contains(md, "| 3 | m0 | r/m0 | 25.0% | – | – | 18.8% | 25.0% | 3/4 (1 of 4 tasks unscored) |") || !strings.Contains(md, "Warning: the runs are on different benchmarks") ||
		!strings.Contains(md, "Warning: r/m0 has 1 of 4 tasks unscored") || lb.Rows[2].Unscored != 1 {
		t.Errorf("leaderboard:\n%s", md)
	}
}

// TestCompareRanksOverAllTasks: a run that solved one task and lost every
// other to the infrastructure (100% over what was scored) does not rank
// above a run that solved more tasks, and a run ranked above one that
// scored more tasks says so in the table.
func TestCompareRanksOverAllTasks(t *testing.T) {
	hider := Summary{Model: "hider", BenchHash: "h", Group: Group{Tasks: 22, Scored: 1, Rollouts: 1, Passed: 1, PassRate: 1, InfraErrors: 21}}
	honest := Summary{Model: "honest", BenchHash: "h", Group: Group{Tasks: 22, Scored: 22, Rollouts: 22, Passed: 5, PassRate: 5.0 / 22}}
	lb := Compare([]Run{{Dir: "r/hider", Summary: hider}, {Dir: "r/honest", Summary: honest}})
	if lb.Rows[0].Model != "honest" || math.Abs(lb.Rows[1].PassRateAllTasks-1.0/22) > 1e-12 {
		t.Errorf("leaderboard %+v: want honest first, hider at 1/22 over all tasks", lb.Rows)
	}
	lucky := Summary{Model: "lucky", BenchHash: "h", Group: Group{Tasks: 22, Scored: 20, Rollouts: 20, Passed: 6, PassRate: 6.0 / 20, InfraErrors: 2}}
	lb = Compare([]Run{{Dir: "r/honest", Summary: honest}, {Dir: "r/lucky", Summary: lucky}})
	md := lb.Markdown()
	if lb.Rows[0].Model != "lucky" || !strings.Contains(md, "| 1 (on fewer scored tasks than a run below) | lucky |") ||
		!strings.Contains(md, "Warning: r/lucky ranks above r/honest on fewer scored tasks (20 of 22)") {
		t.Errorf("a run above one with more scored tasks is not marked:\n%s", md)
	}
}
