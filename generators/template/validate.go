package template

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"synth/checks"
	"synth/checks/adversary"
	"synth/sandbox"
	"synth/schemas"
)

// Reasons a task fails validation.
const (
	DropReferenceError = "reference_error" // a reference step raised or timed out
	DropReferenceFails = "reference_fails" // the reference solution fails a check
	DropAmbiguousTruth = "ambiguous_truth" // the reference's execution does not reproduce a check's expected value
	DropEmptyPasses    = "empty_passes"    // a do-nothing rollout passes every check
	DropMutantPasses   = "mutant_passes"   // a wrong solution passes every check
	DropMissingFile    = "missing_file"    // an input file has no host path
)

// Validation is the outcome of proving a set of tasks.
type Validation struct {
	Kept    []schemas.Task    // in input order
	Dropped map[string]int    // reason -> count
	Why     map[string]string // task id -> reason and the failing check's message
}

// Validate proves each task's checks in the sandbox: the reference solution
// must pass every check (and its code must print what its answer states),
// and a mutated solution (wrong output, wrong number), where the template
// defines one, and every adversary (empty, shotgun, copied input, random
// bytes, blank image, shadow modules, forged code; see package adversary)
// must fail at least one. files maps a file id to its host
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

// Proof is how a task fared against each proof: its reference (which must
// pass, and print what it answers), its mutant and every adversary (which
// must each fail at least one check).
type Proof struct {
	ReferenceError    string                           // a reference step that did not run cleanly
	ReferenceFailure  string                           // the first check the reference failed
	ReferenceMismatch string                           // the first answer check the reference's printed output failed
	Mutant            *bool                            // nil: no mutant; else whether it passed
	Adversaries       map[string]*adversary.Result     // by name; Applied false when it had nothing to try
	Checks            map[string][]schemas.CheckResult // results by proof name ("reference", "mutant", adversary names)
}

// Reason is the drop reason of the proof, empty when the task holds, with a
// message saying why. Adversaries are reported in adversary.All's order. A
// reference whose execution does not reproduce a check's expected value
// (its answer states a number its code never printed, or what it printed
// fails the answer checks) is ambiguous_truth: the value was computed by
// another reader than the Python that solves the task, and the two
// disagree.
func (p Proof) Reason() (reason, why string) {
	switch {
	case p.ReferenceError != "":
		return DropReferenceError, p.ReferenceError
	case checks.Unsupported(p.ReferenceFailure):
		return DropAmbiguousTruth, "the reference's answer is not what its code printed: " + p.ReferenceFailure
	case p.ReferenceFailure != "":
		return DropReferenceFails, p.ReferenceFailure
	case p.ReferenceMismatch != "":
		return DropAmbiguousTruth, "the reference's printed output does not hold the expected value: " + p.ReferenceMismatch
	case p.Mutant != nil && *p.Mutant:
		return DropMutantPasses, "a mutated solution passes every check"
	}
	for _, a := range adversary.All() {
		r := p.Adversaries[a.Name]
		if r == nil || !r.Passed {
			continue
		}
		if a.Name == adversary.Empty {
			return DropEmptyPasses, "an empty rollout passes every check"
		}
		return adversary.Reason(a.Name), "adversary " + a.Name + " (" + a.Doc + ") passes every check"
	}
	return "", ""
}

// ValidateTask proves one task; reason is empty when the task holds, else a
// Drop* word (or adversary.Reason(name)) with a message saying why.
func ValidateTask(ctx context.Context, b sandbox.Backend, t *schemas.Task, files map[string]string) (reason, why string, err error) {
	if t.Reference == nil {
		return "", "", nil
	}
	p, err := ProveTask(ctx, b, t, files)
	if err != nil {
		return "", "", err
	}
	if p.ReferenceError == "missing_file" {
		return DropMissingFile, "an input file has no host path", nil
	}
	reason, why = p.Reason()
	return reason, why, nil
}

// ProveTask runs every proof of a task with a reference. The reference and
// the mutant run in sandboxes of their own; their collected outputs and
// every adversary's files are then verified together in one verification
// sandbox. The error is for a sandbox that could not run, or ctx.
func ProveTask(ctx context.Context, b sandbox.Backend, t *schemas.Task, files map[string]string) (Proof, error) {
	p := Proof{Adversaries: map[string]*adversary.Result{}, Checks: map[string][]schemas.CheckResult{}}
	var inputs []sandbox.Input
	for _, f := range t.Files {
		path, ok := files[f.ID]
		if !ok {
			p.ReferenceError = "missing_file"
			return p, nil
		}
		inputs = append(inputs, sandbox.Input{Name: f.Name, Path: path})
	}
	store, err := os.MkdirTemp("", "synth-validate-")
	if err != nil {
		return p, err
	}
	defer os.RemoveAll(store)
	ref, printed, failed, err := rollout(ctx, b, inputs, filepath.Join(store, "artifacts"), t, t.Reference)
	if err != nil {
		return p, err
	}
	// The mutant and the adversaries prove the checks alone; only the
	// reference is held to what its code printed.
	ref.Observations = printed
	if failed != "" {
		p.ReferenceError = failed
		return p, nil
	}
	cases := []checks.Case{ref, {Checks: checks.AnswerChecks(t.Checks), Answer: strings.Join(printed, "\n"), Transcript: true}, {}}
	if m := Mutant(t); m != nil {
		if cases[2], _, _, err = rollout(ctx, b, inputs, filepath.Join(store, "artifacts"), t, m); err != nil {
			return p, err
		}
	}
	advs := adversary.All()
	for i, a := range advs {
		r, ok, err := a.Make(t, inputs)
		if err != nil {
			return p, fmt.Errorf("task %s: adversary %s: %w", t.ID, a.Name, err)
		}
		p.Adversaries[a.Name] = &adversary.Result{Adversary: a.Name, Applied: ok}
		var c checks.Case
		if ok {
			if c, err = r.Case(t, inputs, filepath.Join(store, "adversary", strconv.Itoa(i))); err != nil {
				return p, fmt.Errorf("task %s: adversary %s: %w", t.ID, a.Name, err)
			}
		}
		cases = append(cases, c)
	}
	rs, err := checks.Verify(ctx, b, cases)
	if err != nil {
		return p, fmt.Errorf("task %s: %w", t.ID, err)
	}
	p.ReferenceFailure, p.ReferenceMismatch = checks.FirstFailure(rs[0]), checks.FirstFailure(rs[1])
	p.Checks["reference"] = rs[0]
	if len(cases[2].Checks) > 0 {
		passed := checks.FirstFailure(rs[2]) == ""
		p.Mutant, p.Checks["mutant"] = &passed, rs[2]
	}
	for i, a := range advs {
		r := p.Adversaries[a.Name]
		if !r.Applied {
			continue
		}
		r.Checks, r.Passed = rs[3+i], checks.FirstFailure(rs[3+i]) == ""
		p.Checks[a.Name] = rs[3+i]
	}
	return p, nil
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

// rollout runs a solution's steps in a fresh sandbox, collects what it
// wrote under output/ into store and closes the sandbox; the case it
// returns is what the checks judge. failed says which step did not run
// cleanly; printed is what each step printed.
func rollout(ctx context.Context, b sandbox.Backend, inputs []sandbox.Input, store string, t *schemas.Task, ref *schemas.Reference) (c checks.Case, printed []string, failed string, err error) {
	sb, err := b.Open(ctx, sandbox.Spec{Inputs: inputs})
	if err != nil {
		return c, nil, "", fmt.Errorf("task %s: open sandbox: %w", t.ID, err)
	}
	defer sb.Close()
	var all []string
	for i, st := range ref.Steps {
		res, err := sb.Exec(ctx, st.Code)
		if err != nil {
			return c, nil, "", fmt.Errorf("task %s: step %d: %w", t.ID, i, err)
		}
		all = append(all, res.Output)
		if res.Status != schemas.StatusOK && failed == "" {
			failed = fmt.Sprintf("step %d ended %s: %s", i, res.Status, lastLines(res.Output, 6))
		}
	}
	arts, err := sandbox.CollectArtifacts(sb.Workspace(), store)
	if err != nil {
		return c, nil, "", fmt.Errorf("task %s: %w", t.ID, err)
	}
	sb.Close()
	c = checks.Case{Checks: t.Checks, Answer: ref.Answer, Messages: []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + ref.Answer}}}
	c.Files = caseInputs(inputs)
	for _, a := range arts {
		c.Files = append(c.Files, sandbox.Input{Name: a.Path, Path: filepath.Join(store, a.SHA256[:2], a.SHA256)})
	}
	return c, all, failed, nil
}

// caseInputs are a task's inputs as a verification case's files, under
// data/.
func caseInputs(inputs []sandbox.Input) []sandbox.Input {
	out := make([]sandbox.Input, 0, len(inputs))
	for _, in := range inputs {
		out = append(out, sandbox.Input{Name: "data/" + in.Name, Path: in.Path, Root: in.Root})
	}
	return out
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
