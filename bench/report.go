package bench

import (
	"fmt"
	"sort"
	"strings"

	"synth/schemas"
)

// Report renders an eval as Markdown: the headline figures, pass rates by
// category and by file type, turns, tokens and cost, failure reasons, the
// infrastructure failures apart, the LLM judge beside the unit tests, and
// the tasks that failed. It is deterministic for a given input.
func Report(s Summary, tasks []schemas.Task, results []Result) string {
	var b strings.Builder
	name := s.Model
	if name == "" {
		name = s.Teacher
	}
	fmt.Fprintf(&b, "# Eval: %s\n\n", name)
	fmt.Fprintf(&b, "- benchmark: %s (%d tasks, content hash `%s`)\n", s.Bench, s.Tasks, short(s.BenchHash))
	fmt.Fprintf(&b, "- teacher: %s; %d sample(s) per task; turn cap %d\n", s.Teacher, s.Samples, s.TurnCap)
	fmt.Fprintf(&b, "- checked by the benchmark's unit tests, run in the sandbox; %s\n\n", scoringLine(s.Scoring))

	b.WriteString("| metric | value |\n|---|---:|\n")
	fmt.Fprintf(&b, "| pass rate (pass@1) | %s (%d/%d rollouts) |\n", pct(s.PassRate), s.Passed, s.Rollouts)
	if s.Samples > 1 {
		fmt.Fprintf(&b, "| pass@%d | %s |\n", s.Samples, pct(s.PassAtK[fmt.Sprint(s.Samples)]))
	}
	fmt.Fprintf(&b, "| pass rate over all tasks (unscored = failed) | %s |\n", pct(s.PassRateAllTasks))
	fmt.Fprintf(&b, "| tasks scored | %d of %d |\n", s.Scored, s.Tasks)
	fmt.Fprintf(&b, "| average turns, PyBench (failed = %d) | %.2f |\n", s.TurnCap, s.AvgTurnsPyBench)
	fmt.Fprintf(&b, "| average turns, passed rollouts | %s |\n", turns(s.AvgTurns, s.Passed))
	fmt.Fprintf(&b, "| tokens per task | %.0f |\n", s.TokensPerTask)
	fmt.Fprintf(&b, "| cost per task | $%.4f (total $%.4f) |\n", s.CostPerTask, s.CostUSD)
	fmt.Fprintf(&b, "| infrastructure failures (not scored) | %d |\n", s.InfraErrors)
	if j := s.Judge; j != nil {
		b.WriteString(judgeRows(j))
	}

	b.WriteString("\n## By category\n\n")
	b.WriteString(groupTable(s.PerCategory, schemas.Categories, CategoryTitle, s.Samples))
	if len(s.PerBand) > 0 {
		fmt.Fprintf(&b, "\n## By difficulty band (%s bands, %s)\n\n", s.Bands, DifficultyFile)
		b.WriteString(groupTable(s.PerBand, Bands, func(k string) string { return k }, s.Samples))
	}
	b.WriteString("\n## By input file type\n\n")
	b.WriteString(groupTable(s.PerFileType, nil, func(k string) string { return k }, s.Samples))

	b.WriteString("\n## Failure reasons\n\n")
	if len(s.Failures) == 0 {
		b.WriteString("No rollout failed its checks.\n")
	} else {
		b.WriteString(countTable("failure", s.Failures))
	}
	if s.InfraErrors > 0 {
		b.WriteString("\n## Infrastructure failures\n\n")
		b.WriteString("These rollouts failed on every attempt for reasons outside the model (endpoint, sandbox, budget). They are not counted in any pass rate; rerun the eval to retry them.\n\n")
		b.WriteString(countTable("failure", s.Infra))
		b.WriteString("\n| task | sample | error |\n|---|---:|---|\n")
		for _, r := range results {
			if r.Infra {
				fmt.Fprintf(&b, "| %s | %d | %s |\n", r.Index, r.Sample, cell(errorOf(r), 160))
			}
		}
	}
	if s.Variant != nil {
		b.WriteString(variantSection(s.Variant))
	}
	b.WriteString(failedTasks(tasks, results))
	return b.String()
}

func judgeRows(j *JudgeSummary) string {
	var b strings.Builder
	if j.Mode == "pairwise" {
		fmt.Fprintf(&b, "| LLM judge (%s), against the baseline | %d win / %d tie / %d lose, win rate %s |\n", j.Model, j.Wins, j.Ties, j.Losses, pct(j.WinRate))
	} else {
		fmt.Fprintf(&b, "| LLM judge (%s) pass rate | %s (agrees with the unit tests on %s) |\n", j.Model, pct(j.PassRate), pct(j.Agreement))
		fmt.Fprintf(&b, "| LLM judge reasoning / code quality (1–10) | %.2f / %.2f |\n", j.AvgReasoning, j.AvgCodeQuality)
	}
	if j.Errors > 0 {
		fmt.Fprintf(&b, "| LLM judge could not judge | %d rollouts |\n", j.Errors)
	}
	return b.String()
}

func groupTable(m map[string]Group, order []string, title func(string) string, samples int) string {
	var b strings.Builder
	b.WriteString("| | tasks | pass rate | ")
	if samples > 1 {
		fmt.Fprintf(&b, "pass@%d | ", samples)
	}
	b.WriteString("passed | avg turns (PyBench) | avg turns (passed) | infra |\n|---|---:|---:|")
	if samples > 1 {
		b.WriteString("---:|")
	}
	b.WriteString("---:|---:|---:|---:|\n")
	for _, k := range sortedGroupKeys(m, order) {
		g := m[k]
		fmt.Fprintf(&b, "| %s | %d | %s | ", title(k), g.Tasks, pct(g.PassRate))
		if samples > 1 {
			fmt.Fprintf(&b, "%s | ", pct(g.PassAtK[fmt.Sprint(samples)]))
		}
		fmt.Fprintf(&b, "%d/%d | %s | %s | %d |\n", g.Passed, g.Rollouts, turns(g.AvgTurnsPyBench, g.Rollouts), turns(g.AvgTurns, g.Passed), g.InfraErrors)
	}
	return b.String()
}

func countTable(head string, m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | rollouts |\n|---|---:|\n", head)
	for _, k := range keys {
		fmt.Fprintf(&b, "| %s | %d |\n", k, m[k])
	}
	return b.String()
}

// failedTasks lists the counted rollouts that failed, in task order, with
// the first failed check or the reason.
func failedTasks(tasks []schemas.Task, results []Result) string {
	pos := map[string]int{}
	for i, t := range tasks {
		pos[t.ID] = i
	}
	var failed []Result
	for _, r := range results {
		if _, ok := pos[r.TaskID]; ok && !r.Passed && !r.Infra {
			failed = append(failed, r)
		}
	}
	if len(failed) == 0 {
		return ""
	}
	sort.SliceStable(failed, func(i, j int) bool {
		if pos[failed[i].TaskID] != pos[failed[j].TaskID] {
			return pos[failed[i].TaskID] < pos[failed[j].TaskID]
		}
		return failed[i].Sample < failed[j].Sample
	})
	var b strings.Builder
	b.WriteString("\n## Failed rollouts\n\n| task | category | sample | turns | failure | detail |\n|---|---|---:|---:|---|---|\n")
	for _, r := range failed {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s |\n", r.Index, r.Category, r.Sample, r.Turns, r.Failure, cell(detailOf(r), 160))
	}
	return b.String()
}

func detailOf(r Result) string {
	if r.Traj == nil {
		return ""
	}
	if v := r.Traj.Verdict; v != nil {
		for _, c := range v.Checks {
			if !c.OK {
				return c.Kind + ": " + c.Message
			}
		}
	}
	if r.Traj.Error != "" {
		return r.Traj.Error
	}
	return "stop: " + r.Traj.StopReason
}

func errorOf(r Result) string {
	if r.Traj != nil && r.Traj.Error != "" {
		return r.Traj.Error
	}
	return r.Failure
}

// cell makes s safe for a Markdown table cell and cuts it to n runes.
func cell(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}

// turns shows an average of n rollouts, "–" when there are none.
func turns(avg float64, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", avg)
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

func short(h string) string {
	if len(h) > 16 {
		return h[:16]
	}
	return h
}

// scoringLine says which scoring mode made the verdicts.
func scoringLine(mode string) string {
	switch mode {
	case ScoringPyBench:
		return "scoring: pybench (PyBench's harness: its prompts and observations, tests run whatever the rollout's stop reason)"
	case "", ScoringStrict:
		return "scoring: strict (a rollout must finish with an answer within the turn cap, then pass every test)"
	}
	return "scoring: " + mode
}
