package eval

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"synth/bench"
	"synth/llm"
	"synth/rollout"
	"synth/rundir"
	"synth/schemas"
)

type judger struct {
	cfg      JudgeConfig
	endpoint rollout.Endpoint // the judge's client, apart from the teacher's
	model    string
	byTask   map[string][]schemas.Message
	byIndex  map[string][]schemas.Message
	maxChars int
}

func newJudge(cfg JudgeConfig, benchDir, out string, opts []llm.Option) (*judger, error) {
	switch cfg.Mode {
	case "":
		return nil, nil
	case JudgeScore, JudgePairwise:
	default:
		return nil, fmt.Errorf("judge mode %q is not known (want score or pairwise)", cfg.Mode)
	}
	c, err := llm.New(cfg.LLM, append([]llm.Option{llm.WithCache(llm.CacheDir(out))}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	j := &judger{cfg: cfg, endpoint: rollout.Endpoint{Client: c}, model: cfg.Model, maxChars: cfg.MaxChars}
	if j.model == "" {
		j.model = c.Model()
	}
	if j.maxChars <= 0 {
		j.maxChars = 12000
	}
	if cfg.Mode == JudgePairwise {
		if err := j.loadBaseline(benchDir); err != nil {
			return nil, err
		}
	}
	return j, nil
}

// loadBaseline reads the pairwise baseline: the first run of each task.
func (j *judger) loadBaseline(benchDir string) error {
	path := j.cfg.Baseline
	switch {
	case path == "":
		return fmt.Errorf("judge pairwise: no baseline (give --judge-baseline reference, a results folder or a trajectory file)")
	case path == "reference":
		path = filepath.Join(benchDir, bench.ReferenceFile)
	default:
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			path = filepath.Join(path, rundir.EvalResults)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("judge baseline: %w", err)
	}
	defer f.Close()
	j.byTask, j.byIndex = map[string][]schemas.Message{}, map[string][]schemas.Message{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec baselineRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return fmt.Errorf("judge baseline %s:%d: %w", path, n, err)
		}
		msgs := rec.Messages
		if rec.Trajectory != nil {
			msgs = rec.Trajectory.Messages
		}
		if rec.Sample != 0 || len(msgs) == 0 {
			continue
		}
		out := make([]schemas.Message, len(msgs))
		for i, m := range msgs {
			out[i] = m.message()
		}
		if rec.TaskID != "" {
			if _, ok := j.byTask[rec.TaskID]; !ok {
				j.byTask[rec.TaskID] = out
			}
		}
		if idx := indexText(rec.Index); idx != "" {
			if _, ok := j.byIndex[idx]; !ok {
				j.byIndex[idx] = out
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("judge baseline %s: %w", path, err)
	}
	if len(j.byTask)+len(j.byIndex) == 0 {
		return fmt.Errorf("judge baseline %s: no runs in the file", path)
	}
	return nil
}

type baselineRecord struct {
	TaskID     string          `json:"task_id"`
	Index      json.RawMessage `json:"index"`
	Sample     int             `json:"sample"`
	Messages   []flexMessage   `json:"messages"`
	Trajectory *struct {
		Messages []flexMessage `json:"messages"`
	} `json:"trajectory"`
}

// flexMessage reads content as a string or a list of text parts.
type flexMessage struct {
	Role      string             `json:"role"`
	Content   json.RawMessage    `json:"content"`
	ToolCalls []schemas.ToolCall `json:"tool_calls"`
}

func (m flexMessage) message() schemas.Message {
	out := schemas.Message{Role: m.Role, ToolCalls: m.ToolCalls}
	if json.Unmarshal(m.Content, &out.Content) != nil {
		var parts []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Content, &parts)
		for _, p := range parts {
			out.Content += p.Text
		}
	}
	return out
}

func indexText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	t := strings.TrimSpace(string(raw))
	if t == "null" {
		return ""
	}
	return t
}

// judge asks for an opinion of one rollout. Failures are recorded in the
// judgement, not returned: the judge never decides whether the eval runs.
func (j *judger) judge(ctx context.Context, task *schemas.Task, t *schemas.Trajectory) *bench.Judgement {
	jd := &bench.Judgement{Mode: j.cfg.Mode, Model: j.model}
	var msgs []schemas.Message
	swapped := false
	if j.cfg.Mode == JudgePairwise {
		base, ok := j.byTask[task.ID]
		if !ok {
			base, ok = j.byIndex[task.Index]
		}
		if !ok {
			jd.Error = "the baseline has no run of this task"
			return jd
		}
		h := sha256.Sum256([]byte(task.ID))
		swapped = h[0]&1 == 1 // which side is A, stable per task, to spread position bias
		a, b := j.transcript(t.Messages), j.transcript(base)
		if swapped {
			a, b = b, a
		}
		msgs = []schemas.Message{{Role: schemas.RoleSystem, Content: pairwisePrompt},
			{Role: schemas.RoleUser, Content: taskText(task) + "\n\n## Run A\n\n" + a + "\n\n## Run B\n\n" + b}}
	} else {
		msgs = []schemas.Message{{Role: schemas.RoleSystem, Content: scorePrompt},
			{Role: schemas.RoleUser, Content: taskText(task) + "\n\n## Run\n\n" + j.transcript(t.Messages) + artifactText(t)}}
	}
	zero := 0.0
	resp, err := j.endpoint.Client.Chat(ctx, llm.Request{Model: j.model, Messages: msgs, Temperature: &zero, JSON: true, CacheSalt: "judge/" + t.ID})
	if err != nil {
		jd.Error = err.Error()
		return jd
	}
	var v struct {
		Pass        *bool   `json:"pass"`
		Reasoning   float64 `json:"reasoning"`
		CodeQuality float64 `json:"code_quality"`
		Winner      string  `json:"winner"`
		Explanation string  `json:"explanation"`
	}
	text := resp.Message.Content
	if i, k := strings.Index(text, "{"), strings.LastIndex(text, "}"); i >= 0 && k > i {
		text = text[i : k+1]
	}
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		jd.Error = fmt.Sprintf("the judge's reply is not the JSON asked for: %.200q", resp.Message.Content)
		return jd
	}
	jd.Explanation = v.Explanation
	if j.cfg.Mode == JudgePairwise {
		w := strings.ToUpper(strings.TrimSpace(v.Winner))
		switch {
		case w == "TIE":
			jd.Outcome = bench.Tie
		case (w == "A") != swapped && (w == "A" || w == "B"):
			jd.Outcome = bench.Win
		case w == "A" || w == "B":
			jd.Outcome = bench.Lose
		default:
			jd.Error = fmt.Sprintf("the judge named no winner (%q)", v.Winner)
		}
		return jd
	}
	if v.Pass == nil {
		jd.Error = "the judge's reply has no \"pass\""
		return jd
	}
	jd.Pass = v.Pass
	jd.Reasoning = clampScore(v.Reasoning)
	jd.CodeQuality = clampScore(v.CodeQuality)
	return jd
}

func clampScore(x float64) int { return int(min(10, max(1, x+0.5))) }

const scorePrompt = `You judge a run of a code-interpreter agent: a user asked for something, the agent wrote Python in turns, and an interpreter ran it.
Judge only what the run shows. Reply with one JSON object and nothing else:
{"pass": true or false, "reasoning": 1-10, "code_quality": 1-10, "explanation": "one or two sentences"}
pass: the final answer and the files written fulfil the whole request, correctly.
reasoning: how sound and direct the steps were. code_quality: how correct, clear and robust the code was.`

const pairwisePrompt = `You compare two runs, A and B, of code-interpreter agents on the same request: each wrote Python in turns, and an interpreter ran it.
Decide which run better fulfils the whole request, correctly, with sound steps and good code; the order of the runs means nothing.
Reply with one JSON object and nothing else:
{"winner": "A", "B" or "tie", "explanation": "one or two sentences"}`

func taskText(task *schemas.Task) string {
	s := "## Request\n\n" + task.Query
	if len(task.Files) > 0 {
		s += "\n\nInput files: " + strings.Join(task.DataPaths(), ", ")
	}
	return s
}

func artifactText(t *schemas.Trajectory) string {
	if len(t.Artifacts) == 0 {
		return "\n\n## Files the run wrote\n\nnone"
	}
	var b strings.Builder
	b.WriteString("\n\n## Files the run wrote\n\n")
	for _, a := range t.Artifacts {
		fmt.Fprintf(&b, "- %s (%d bytes)\n", a.Path, a.Size)
	}
	return b.String()
}

// transcript renders a run's turns after the system prompt, each cut to a
// share of the budget, the whole cut to maxChars keeping head and tail.
func (j *judger) transcript(msgs []schemas.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Role == schemas.RoleSystem {
			continue
		}
		text := m.Content
		for _, tc := range m.ToolCalls {
			text += "\n[call " + tc.Name + "] " + tc.Arguments
		}
		fmt.Fprintf(&b, "[%s]\n%s\n\n", m.Role, cut(text, j.maxChars/4))
	}
	return cut(strings.TrimSpace(b.String()), j.maxChars)
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head, tail := n*2/3, n/3
	return string(r[:head]) + fmt.Sprintf("\n…[%d characters cut]…\n", len(r)-head-tail) + string(r[len(r)-tail:])
}
