package writer

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"synth/proof"
	"synth/sandbox"
	"synth/schemas"
)

// staticPy is the static rule on python checks, read with Python's ast in
// the sandbox: the answer and the messages may be compared with a constant
// only as a required condition, never where it opens another way to pass.
//
//go:embed static.py
var staticPy string

// staticMark starts the line the static rule prints its findings on.
const staticMark = "\x1esynth-static "

// branchOnAnswer reads every python check of cs with the static rule, in a
// sandbox of its own holding no input, and describes the first finding
// ("check 2, line 3: a branch on a constant in the answer"), or returns ""
// when there is none. The error is for a sandbox that could not run the
// rule.
func (p *Prover) branchOnAnswer(ctx context.Context, cs []schemas.Check) (string, error) {
	var codes []string
	var index []int
	for i, c := range cs {
		if c.Kind == schemas.CheckPython {
			codes = append(codes, c.Code)
			index = append(index, i)
		}
	}
	if len(codes) == 0 {
		return "", nil
	}
	js, _ := json.Marshal(codes)
	lit, _ := json.Marshal(string(js))
	sb, err := p.Backend.Open(ctx, sandbox.Spec{})
	if err != nil {
		return "", fmt.Errorf("static rule: open sandbox: %w", err)
	}
	defer sb.Close()
	cell := staticPy + fmt.Sprintf("\nimport json as _json\nprint(%q + _json.dumps([analyze(c) for c in _json.loads(%s)]))\n", staticMark, lit)
	res, err := sb.Exec(ctx, cell)
	if err != nil {
		return "", fmt.Errorf("static rule: %w", err)
	}
	i := strings.LastIndex(res.Output, staticMark)
	var found [][]string
	if res.Status != schemas.StatusOK || i < 0 {
		return "", fmt.Errorf("static rule did not run (%s): %s", res.Status, proof.LastLines(res.Output, 4))
	}
	line, _, _ := strings.Cut(res.Output[i+len(staticMark):], "\n")
	if err := json.Unmarshal([]byte(line), &found); err != nil || len(found) != len(codes) {
		return "", fmt.Errorf("static rule: unreadable findings %q", line)
	}
	for k, fs := range found {
		if len(fs) > 0 {
			return fmt.Sprintf("check %d, %s", index[k], fs[0]), nil
		}
	}
	return "", nil
}
