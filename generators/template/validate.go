package template

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// Reasons a task fails validation.
const (
	DropReferenceError    = "reference_error"    // a reference step raised or timed out
	DropReferenceFails    = "reference_fails"    // the reference solution fails a check
	DropReferenceMismatch = "reference_mismatch" // the reference's code does not print what its answer says
	DropEmptyPasses       = "empty_passes"       // a do-nothing rollout passes every check
	DropMutantPasses      = "mutant_passes"      // a wrong solution passes every check
	DropMissingFile       = "missing_file"       // an input file has no host path
)

// Validation is the outcome of proving a set of tasks.
type Validation struct {
	Kept    []schemas.Task    // in input order
	Dropped map[string]int    // reason -> count
	Why     map[string]string // task id -> reason and the failing check's message
}

// Validate proves each task's checks in the sandbox: the reference solution
// must pass every check (and its code must print what its answer states), a
// do-nothing rollout (no code, an empty answer) must fail at least one, and
// a mutated solution (wrong output, wrong number), where the template
// defines one, must fail at least one. files maps a file id to its host
// path. Tasks without a reference are kept unproven. The error is for a
// sandbox that could not run, or ctx.
func Validate(ctx context.Context, b sandbox.Backend, tasks []schemas.Task, files map[string]string, workers int) (Validation, error) {
	if workers <= 0 {
		workers = 2
	}
	v := Validation{Dropped: map[string]int{}, Why: map[string]string{}}
	reasons := make([]string, len(tasks))
	whys := make([]string, len(tasks))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i := range tasks {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			r, why, err := ValidateTask(gctx, b, &tasks[i], files)
			reasons[i], whys[i] = r, why
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return v, err
	}
	if err := ctx.Err(); err != nil {
		return v, err
	}
	for i, t := range tasks {
		if reasons[i] == "" {
			v.Kept = append(v.Kept, t)
			continue
		}
		v.Dropped[reasons[i]]++
		v.Why[t.ID] = reasons[i] + ": " + whys[i]
	}
	return v, nil
}

// ValidateTask proves one task; reason is empty when the task holds, else a
// Drop* word with a message saying why.
func ValidateTask(ctx context.Context, b sandbox.Backend, t *schemas.Task, files map[string]string) (reason, why string, err error) {
	if t.Reference == nil {
		return "", "", nil
	}
	var inputs []sandbox.Input
	for _, f := range t.Files {
		p, ok := files[f.ID]
		if !ok {
			return DropMissingFile, "no host path for " + f.Name, nil
		}
		inputs = append(inputs, sandbox.Input{Name: f.Name, Path: p})
	}
	// The reference must pass, and print what it answers.
	rs, printed, failed, err := rollout(ctx, b, inputs, t, t.Reference, true)
	if err != nil {
		return "", "", err
	}
	if failed != "" {
		return DropReferenceError, failed, nil
	}
	if msg := firstFailure(rs); msg != "" {
		return DropReferenceFails, msg, nil
	}
	if msg := firstFailure(printed); msg != "" {
		return DropReferenceMismatch, "the reference's output: " + msg, nil
	}
	// A do-nothing rollout must fail.
	rs, _, _, err = rollout(ctx, b, inputs, t, &schemas.Reference{}, false)
	if err != nil {
		return "", "", err
	}
	if firstFailure(rs) == "" {
		return DropEmptyPasses, "an empty rollout passes every check", nil
	}
	// So must a wrong solution.
	if m := Mutant(t); m != nil {
		rs, _, _, err = rollout(ctx, b, inputs, t, m, false)
		if err != nil {
			return "", "", err
		}
		if firstFailure(rs) == "" {
			return DropMutantPasses, "a mutated solution passes every check", nil
		}
	}
	return "", "", nil
}

// Mutant is a wrong solution for the task that its checks must reject, or
// nil when its template defines none.
func Mutant(t *schemas.Task) *schemas.Reference {
	name := strings.TrimPrefix(t.Generator, "template:")
	if i := strings.LastIndexByte(name, '@'); i >= 0 {
		name = name[:i]
	}
	for _, tm := range registry {
		if tm.Name == name && tm.mutate != nil {
			return tm.mutate(t)
		}
	}
	return nil
}

// rollout runs a solution's steps in a fresh sandbox and then the task's
// checks; failed says which step did not run cleanly. With printed, it also
// runs the answer checks against what the steps printed.
func rollout(ctx context.Context, b sandbox.Backend, inputs []sandbox.Input, t *schemas.Task, ref *schemas.Reference, printed bool) (rs, prs []schemas.CheckResult, failed string, err error) {
	sb, err := b.Open(ctx, sandbox.Spec{Inputs: inputs})
	if err != nil {
		return nil, nil, "", fmt.Errorf("task %s: open sandbox: %w", t.ID, err)
	}
	defer sb.Close()
	var all strings.Builder
	for i, st := range ref.Steps {
		res, err := sb.Exec(ctx, st.Code)
		if err != nil {
			return nil, nil, "", fmt.Errorf("task %s: step %d: %w", t.ID, i, err)
		}
		all.WriteString(res.Output + "\n")
		if res.Status != schemas.StatusOK && failed == "" {
			failed = fmt.Sprintf("step %d ended %s: %s", i, res.Status, lastLines(res.Output, 6))
		}
	}
	msgs := []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + ref.Answer}}
	rs, err = checks.Verify(ctx, sb, t.Checks, ref.Answer, msgs)
	if err != nil {
		return nil, nil, "", fmt.Errorf("task %s: %w", t.ID, err)
	}
	if ans := answerChecks(t.Checks); printed && len(ans) > 0 {
		prs, err = checks.Verify(ctx, sb, ans, all.String(), nil)
		if err != nil {
			return nil, nil, "", fmt.Errorf("task %s: %w", t.ID, err)
		}
	}
	return rs, prs, failed, nil
}

func answerChecks(cs []schemas.Check) []schemas.Check {
	var out []schemas.Check
	for _, c := range cs {
		if c.Kind == schemas.CheckAnswer {
			out = append(out, c)
		}
	}
	return out
}

func firstFailure(rs []schemas.CheckResult) string {
	for _, r := range rs {
		if !r.OK {
			return r.Kind + ": " + r.Message
		}
	}
	return ""
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

var _ sync.Mutex
