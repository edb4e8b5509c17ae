package proof

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// coverPy traces a python check's conditions (see its comment).
//
//go:embed cover.py
var coverPy string

const coverMark = "\x1esynth-cover "

// traced is one case's trace of one python check.
type traced struct {
	OK      bool              `json:"ok"`
	Seen    map[string]string `json:"seen"`
	RawMeta map[string][]any  `json:"meta"`
}

// Untested traces every python check of t that reads the answer over
// cases (the reference's and its wrong solutions') and returns the first
// condition reading the answer that can decide a pass and that no case
// drove both ways: an operand of an or that was never true, an if whose
// untaken branch could skip an assertion, a conditional expression or a
// comparison used as a number that never changed. Such a condition is
// untested: a backdoor looks exactly like that, whatever its form, since
// the answers that open it are the ones no honest test gives. The message
// names the check and the line; empty when every condition was driven.
// The error is for a sandbox that could not verify.
func Untested(ctx context.Context, b sandbox.Backend, t *schemas.Task, cases []checks.Case) (string, error) {
	var idx []int
	var wrapped []schemas.Check
	for k, c := range t.Checks {
		if c.Kind != schemas.CheckPython || !strings.Contains(c.Code, "answer") && !strings.Contains(c.Code, "messages") {
			continue
		}
		idx = append(idx, k)
		wrapped = append(wrapped, schemas.Check{Kind: schemas.CheckPython,
			Code: fmt.Sprintf("SRC = %s\nMARK = %q\n", strconv.Quote(c.Code), coverMark) + coverPy})
	}
	if len(idx) == 0 || len(cases) == 0 {
		return "", nil
	}
	run := make([]checks.Case, len(cases))
	for i, c := range cases {
		run[i] = c
		run[i].Checks = wrapped
		run[i].Observations = nil
	}
	rs, err := Verify(ctx, b, run, 0)
	if err != nil {
		return "", err
	}
	for j, k := range idx {
		seen := map[string]string{}
		var meta map[string][]any
		for _, r := range rs {
			if j >= len(r) {
				continue
			}
			_, line, ok := strings.Cut(r[j].Message, coverMark)
			if !ok {
				return fmt.Sprintf("check %d (python) could not be traced: %s", k, r[j].Message), nil
			}
			var tr traced
			if err := json.Unmarshal([]byte(line), &tr); err != nil {
				return fmt.Sprintf("check %d (python) could not be traced: %v", k, err), nil
			}
			meta = tr.RawMeta
			for id, s := range tr.Seen {
				seen[id] += s
			}
		}
		if msg := untestedIn(meta, seen); msg != "" {
			return fmt.Sprintf("check %d (python), %s", k, msg), nil
		}
	}
	return "", nil
}

// untestedIn is the first untested condition of one check's trace: meta
// by condition id ([role, line, harmless if never true, harmless if never
// false]), seen the truths each took over every case.
func untestedIn(meta map[string][]any, seen map[string]string) string {
	ids := make([]string, 0, len(meta))
	for id := range meta {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { x, _ := strconv.Atoi(ids[a]); y, _ := strconv.Atoi(ids[b]); return x < y })
	for _, id := range ids {
		m := meta[id]
		if len(m) < 4 {
			continue
		}
		role, _ := m[0].(string)
		line, _ := m[1].(float64)
		harmlessTrue, _ := m[2].(bool)
		harmlessFalse, _ := m[3].(bool)
		s := seen[id]
		t, f := strings.Contains(s, "T"), strings.Contains(s, "F")
		var why string
		switch role {
		case "or":
			if !t {
				why = "an alternative of an or that no case made true"
			}
		case "if":
			switch {
			case s == "":
			case !t && !harmlessTrue:
				why = "an if whose branch no case took"
			case !f && !harmlessFalse:
				why = "an if that no case made false, which would skip an assertion"
			}
		case "ifexp":
			if s != "" && t != f {
				why = "a conditional expression whose other branch no case took"
			}
		case "arith":
			if s != "" && !t {
				why = "a comparison used as a value that no case made true"
			}
		}
		if why != "" {
			return fmt.Sprintf("line %d: %s, reading the answer: a condition no tested answer meets decides the verdict", int(line), why)
		}
	}
	return ""
}
