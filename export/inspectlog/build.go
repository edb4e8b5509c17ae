package inspectlog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"synth/bench"
	"synth/eval"
	"synth/schemas"
)

// Build turns a finished eval's results folder into an inspect_ai log. The
// log's ids are derived from the results, so exporting the same folder
// twice gives the same log.
func Build(ef *eval.Folder) Log {
	s := ef.Summary
	model := modelName(s)
	id := logID(ef)
	created := stamp(ef.Started)
	l := Log{
		Version: 2,
		Status:  "success",
		Eval: Spec{
			EvalID: id, RunID: id, Created: created, Task: taskName(ef.Bench), TaskID: s.BenchHash,
			Dataset:  Dataset{Name: taskName(ef.Bench), Location: ef.Bench, Samples: s.Tasks},
			Model:    model,
			Config:   Config{Epochs: max(1, s.Samples)},
			Packages: map[string]string{"synth": ef.Version},
			Metadata: map[string]any{"bench_hash": s.BenchHash, "teacher": s.Teacher, "scoring": s.Scoring,
				"turn_cap": s.TurnCap, "pass_rate": s.PassRate, "pass_rate_all_tasks": s.PassRateAllTasks,
				"avg_turns": s.AvgTurns, "avg_turns_pybench": s.AvgTurnsPyBench},
		},
		Plan:  Plan{Name: "plan", Steps: []PlanStep{{Solver: "synth/" + s.Teacher, Params: map[string]any{"scoring": s.Scoring, "turn_cap": s.TurnCap}}}},
		Stats: Stats{StartedAt: created, CompletedAt: stamp(ef.Finished), ModelUsage: map[string]Usage{}},
	}
	if ef.Finished.IsZero() {
		l.Status = "cancelled"
		l.Stats.CompletedAt = ""
	}
	var total Usage
	scored, ids := 0, map[string]bool{}
	for _, r := range ef.Results {
		smp := sample(r, model)
		if !ids[smp.ID] {
			ids[smp.ID] = true
			l.Eval.Dataset.SampleIDs = append(l.Eval.Dataset.SampleIDs, smp.ID)
		}
		if smp.Error == nil {
			scored++
		}
		u := smp.ModelUsage[model]
		total = addUsage(total, u)
		l.Samples = append(l.Samples, smp)
	}
	sort.SliceStable(l.Samples, func(i, j int) bool { return sampleLess(l.Samples[i], l.Samples[j]) })
	l.Stats.ModelUsage[model] = total
	l.Results = Results{
		TotalSamples: len(l.Samples), CompletedSamples: scored,
		Scores: []EvalScore{{
			Name: ScorerName, Scorer: ScorerName, ScoredSamples: scored, UnscoredSamples: len(l.Samples) - scored,
			Metrics: map[string]Metric{
				"accuracy":           {Name: "accuracy", Value: s.PassRate},
				"accuracy_all_tasks": {Name: "accuracy_all_tasks", Value: s.PassRateAllTasks},
			},
		}},
	}
	return l
}

// sample is one rollout as an inspect_ai sample.
func sample(r bench.Result, model string) Sample {
	smp := Sample{ID: r.Index, Epoch: r.Sample + 1, Metadata: map[string]any{
		"task_id": r.TaskID, "category": r.Category, "subcategory": r.Subcategory, "file_types": r.FileTypes,
		"turns": r.Turns, "attempts": r.Attempts, "failure": r.Failure, "rollout_id": r.ID,
	}, Output: Output{Model: model}, ModelUsage: map[string]Usage{}}
	if smp.ID == "" {
		smp.ID = r.TaskID
	}
	if r.Judge != nil {
		smp.Metadata["judge"] = r.Judge
	}
	t := r.Traj
	if t == nil {
		t = &schemas.Trajectory{}
	}
	smp.Messages = messages(t.Messages)
	smp.Input = []Message{}
	for _, m := range smp.Messages {
		if m.Role == schemas.RoleAssistant {
			break
		}
		smp.Input = append(smp.Input, m)
	}
	smp.Output.Completion = t.FinalAnswer
	smp.Metadata["stop_reason"] = t.StopReason
	smp.ModelUsage[model] = usageOf(t.Usage)
	if r.Infra {
		smp.Error = &Error{Message: strings.TrimSpace(r.Failure + ": " + t.Error)}
		return smp
	}
	value := Incorrect
	if r.Passed {
		value = Correct
	}
	var checks []schemas.CheckResult
	if t.Verdict != nil {
		checks = t.Verdict.Checks
	}
	smp.Scores = map[string]Score{ScorerName: {
		Value: value, Answer: t.FinalAnswer, Explanation: explain(r, checks),
		Metadata: map[string]any{"failure": r.Failure, "checks": checksOf(checks)},
	}}
	return smp
}

// sampleLess orders samples by task index (numerically when both are
// numbers) and epoch.
func sampleLess(a, b Sample) bool {
	if a.ID != b.ID {
		x, errx := strconv.Atoi(a.ID)
		y, erry := strconv.Atoi(b.ID)
		if errx == nil && erry == nil {
			return x < y
		}
		return a.ID < b.ID
	}
	return a.Epoch < b.Epoch
}

// explain is the checks' messages, one a line, and the failure word.
func explain(r bench.Result, checks []schemas.CheckResult) string {
	var b strings.Builder
	if r.Failure != "" {
		fmt.Fprintf(&b, "failure: %s\n", r.Failure)
	}
	for _, c := range checks {
		mark := "ok"
		if !c.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "%s %s: %s\n", mark, c.Kind, c.Message)
	}
	return strings.TrimRight(b.String(), "\n")
}

func checksOf(cs []schemas.CheckResult) []schemas.CheckResult {
	if cs == nil {
		return []schemas.CheckResult{}
	}
	return cs
}

// messages converts a trajectory's messages; a tool message names the
// function its call named.
func messages(ms []schemas.Message) []Message {
	fn := map[string]string{}
	out := make([]Message, 0, len(ms))
	for _, m := range ms {
		im := Message{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			fn[c.ID] = c.Name
			tc := ToolCall{ID: c.ID, Function: c.Name, Type: "function", Arguments: map[string]any{}}
			if err := json.Unmarshal([]byte(c.Arguments), &tc.Arguments); err != nil || tc.Arguments == nil {
				tc.Arguments = map[string]any{}
				tc.ParseError = fmt.Sprintf("arguments are not a JSON object: %q", c.Arguments)
			}
			im.ToolCalls = append(im.ToolCalls, tc)
		}
		if m.Role == schemas.RoleTool {
			im.Function = fn[m.ToolCallID]
		}
		out = append(out, im)
	}
	return out
}

func usageOf(u schemas.Usage) Usage {
	out := Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, TotalTokens: u.PromptTokens + u.CompletionTokens}
	if u.CachedTokens > 0 {
		c := u.CachedTokens
		out.InputCacheRead = &c
	}
	if u.CostUSD > 0 {
		c := u.CostUSD
		out.TotalCost = &c
	}
	return out
}

func addUsage(a, b Usage) Usage {
	a.InputTokens += b.InputTokens
	a.OutputTokens += b.OutputTokens
	a.TotalTokens += b.TotalTokens
	if b.InputCacheRead != nil {
		c := *b.InputCacheRead
		if a.InputCacheRead != nil {
			c += *a.InputCacheRead
		}
		a.InputCacheRead = &c
	}
	if b.TotalCost != nil {
		c := *b.TotalCost
		if a.TotalCost != nil {
			c += *a.TotalCost
		}
		a.TotalCost = &c
	}
	return a
}

// modelName is the evaluated model, or synth/TEACHER for an offline teacher.
func modelName(s bench.Summary) string {
	if s.Model != "" {
		return s.Model
	}
	return "synth/" + s.Teacher
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// taskName is the benchmark folder's name, safe in a file name.
func taskName(benchDir string) string {
	name := unsafeName.ReplaceAllString(filepath.Base(filepath.Clean(benchDir)), "-")
	if name == "" || name == "." || name == "-" {
		return "bench"
	}
	return name
}

// logID is 22 hex digits of a hash of the results, as long as inspect's ids.
func logID(ef *eval.Folder) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", ef.Summary.BenchHash, ef.Summary.Teacher, ef.Summary.Model)
	for _, r := range ef.Results {
		b, _ := json.Marshal(r)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:22]
}

func stamp(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format("2006-01-02T15:04:05+00:00")
}
