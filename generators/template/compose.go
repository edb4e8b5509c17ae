package template

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"synth/checks"
	"synth/proof"
	"synth/schemas"
)

// A composed task (Task.Steps > 0) has a reference of Steps+2 steps: the
// load, one step per link of its chain, and the report. Its proof adds
// the solutions that skip a link: each must fail the task's checks, or
// the task is not emitted (DropSkipPasses).

// DropSkipPasses is the drop reason of a composed task that a solution
// skipping one of its steps (or doing only its first) passes.
const DropSkipPasses = "skip_step_passes"

// Skip is a wrong solution of a composed task: the reference with one
// step left out.
type Skip struct {
	Name string // skip_1 … skip_N (the link left out), first_step_only
	Ref  *schemas.Reference
}

// identity is the code a skipped step runs: it leaves df as it is.
const identity = "df = df  # step skipped"

// SkipSolutions are the wrong solutions of a composed task: for each
// link, the reference with that link replaced by identity; and the weak
// solver's, which does the first link only (the load, the first link,
// the report). Each answers with what its code printed (SkipAnswer). Nil
// for a task that is not composed or whose reference is not a chain's.
func SkipSolutions(t *schemas.Task) []Skip {
	r := t.Reference
	if t.Steps <= 0 || r == nil || len(r.Steps) != t.Steps+2 {
		return nil
	}
	var out []Skip
	for i := 1; i <= t.Steps; i++ {
		steps := append([]schemas.RefStep(nil), r.Steps...)
		steps[i] = schemas.RefStep{Thought: "Skip this step.", Code: identity}
		out = append(out, Skip{Name: fmt.Sprintf("skip_%d", i), Ref: &schemas.Reference{Steps: steps}})
	}
	return append(out, Skip{Name: "first_step_only", Ref: FirstStepOnly(t)})
}

// FirstStepOnly is the weak scripted solver of a composed task: the load,
// the chain's first step and the report, answering what it printed; nil
// for a task that is not composed.
func FirstStepOnly(t *schemas.Task) *schemas.Reference {
	steps := t.FirstLinkSteps()
	if steps == nil {
		return nil
	}
	return &schemas.Reference{Steps: steps}
}

// SkipAnswer is a skip solution's final answer: what its last step (the
// report) printed.
func SkipAnswer(p proof.Played) string {
	if len(p.Printed) == 0 {
		return ""
	}
	return strings.TrimSpace(p.Printed[len(p.Printed)-1])
}

// ProveSkips plays every skip solution of a composed task, each in a
// sandbox of its own, and verifies them in one batch: passing names those
// its checks accept (none when the task holds). files maps a file id to
// its host path. A task that is not composed has nothing to prove. The
// error is for a sandbox that could not run, or ctx.
func ProveSkips(ctx context.Context, b proof.Backend, t *schemas.Task, files map[string]string) (passing []string, err error) {
	skips := SkipSolutions(t)
	if len(skips) == 0 {
		return nil, nil
	}
	var inputs []proof.Input
	for _, f := range t.Files {
		path, ok := files[f.ID]
		if !ok {
			return nil, fmt.Errorf("task %s: input %s has no host path", t.ID, f.Name)
		}
		inputs = append(inputs, proof.Input{Name: f.Name, Path: path})
	}
	store, err := os.MkdirTemp("", "synth-skips-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(store)
	arts := filepath.Join(store, "artifacts")
	cases := make([]checks.Case, len(skips))
	for i, s := range skips {
		s.Ref.Answer = "" // set from what it printed, below
		p, err := proof.Play(ctx, b, t, s.Ref, inputs, arts)
		if err != nil {
			return nil, fmt.Errorf("task %s: %s: %w", t.ID, s.Name, err)
		}
		c := p.Case
		c.Answer = SkipAnswer(p)
		c.Messages = []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + c.Answer}}
		cases[i] = c
	}
	rs, err := proof.Verify(ctx, b, cases, 0)
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", t.ID, err)
	}
	for i, r := range rs {
		if checks.FirstFailure(r) == "" {
			passing = append(passing, skips[i].Name)
		}
	}
	return passing, nil
}
