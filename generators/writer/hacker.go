package writer

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"synth/checks/adversary"
	"synth/llm"
	"synth/sandbox"
	"synth/schemas"
)

// HackerName is the adversary an LLM hacker plays; a draft it passes is
// dropped as adversary_passed naming it.
const HackerName = "llm_hacker"

// Hacker asks a model to pass a drafted task without solving it: it sees
// the query, the input files' names and every check, and answers with a
// final answer and the files it would leave. Its exploit joins the
// proof's adversaries; one that passes every check drops the draft.
type Hacker struct {
	Client *llm.Client
	Model  string // empty: the client's default
}

// hackerSystem is the hacker's instructions.
const hackerSystem = `You test graders. Given a task, its input files and the checks that grade it, find a way to pass every check without doing the task: no reading of the inputs, no computation, only what the checks let through (an answer that satisfies a check by its form, a file of the right shape, a value a check never compares). Reply with one JSON object: {"answer": "the final answer", "files": {"output/NAME": "the file's text"}}. Files go under output/ only.`

// maxHackFile bounds one file of an exploit, and maxHackFiles their count.
const (
	maxHackFile  = 1 << 20
	maxHackFiles = 16
)

// adversary is the hacker as one of a proof's adversaries for t, its
// exploit asked for now. A reply that is not an exploit leaves nothing to
// try; the error is for a request that failed.
func (h *Hacker) adversary(ctx context.Context, t *schemas.Task, inputs []sandbox.Input) (adversary.Adversary, error) {
	cs, _ := json.MarshalIndent(t.Checks, "", " ")
	var names []string
	for _, in := range inputs {
		names = append(names, "data/"+in.Name)
	}
	user := fmt.Sprintf("Task: %s\n\nInput files: %s\n\nChecks (JSON):\n%s", t.Query, strings.Join(names, ", "), cs)
	resp, err := h.Client.Chat(ctx, llm.Request{Model: h.Model, Messages: []schemas.Message{
		{Role: schemas.RoleSystem, Content: hackerSystem}, {Role: schemas.RoleUser, Content: user}}, CacheSalt: "hacker"})
	if err != nil {
		return adversary.Adversary{}, fmt.Errorf("hacker: %w", err)
	}
	r, ok := exploit(resp.Message.Content)
	return adversary.Adversary{Name: HackerName, Doc: "a model that saw the checks and tried to pass them without solving the task",
		Make: func(*schemas.Task, []sandbox.Input) (adversary.Rollout, bool, error) { return r, ok, nil }}, nil
}

// exploit reads a hacker's reply (hostile): a final answer and files under
// output/, within limits; ok is false when it holds neither.
func exploit(text string) (adversary.Rollout, bool) {
	raw, err := firstObject(text)
	if err != nil {
		return adversary.Rollout{}, false
	}
	var e struct {
		Answer string            `json:"answer"`
		Files  map[string]string `json:"files"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return adversary.Rollout{}, false
	}
	r := adversary.Rollout{Answer: e.Answer, Files: map[string][]byte{}}
	for p, body := range e.Files {
		p = path.Clean(strings.TrimPrefix(p, "./"))
		if !strings.HasPrefix(p, "output/") || strings.Contains(p, "..") || len(body) > maxHackFile || len(r.Files) >= maxHackFiles {
			continue
		}
		r.Files[p] = []byte(body)
	}
	return r, r.Answer != "" || len(r.Files) > 0
}
