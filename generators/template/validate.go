package template

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"

	"synth/checks"
	"synth/checks/adversary"
	"synth/proof"
	"synth/schemas"
)

// Validation is the outcome of proving a set of tasks.
type Validation struct {
	Kept    []schemas.Task    // in input order
	Dropped map[string]int    // reason -> count
	Why     map[string]string // task id -> reason and the failing check's message
	// Grader is how each template's checks fared against the wrong
	// solutions tried on its tasks (proof.Tally), by template name.
	Grader map[string]proof.Tally
}

// Validate proves each task's checks in the sandbox: the reference solution
// must pass every check (and its code must print what its answer states),
// and a mutated solution (wrong output, wrong number), where the template
// defines one, and every adversary (empty, shotgun, copied input, random
// bytes, blank image, shadow modules, forged code; see package adversary)
// must fail at least one. files maps a file id to its host
// path. Tasks without a reference are kept unproven. The error is for a
// sandbox that could not run, or ctx.
func Validate(ctx context.Context, b proof.Backend, tasks []schemas.Task, files map[string]string, workers int) (Validation, error) {
	if workers <= 0 {
		workers = 2
	}
	v := Validation{Dropped: map[string]int{}, Why: map[string]string{}, Grader: map[string]proof.Tally{}}
	reasons := make([]string, len(tasks))
	whys := make([]string, len(tasks))
	tallies := make([]proof.Tally, len(tasks))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i := range tasks {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			r, why, tally, err := validateTask(gctx, b, &tasks[i], files)
			reasons[i], whys[i], tallies[i] = r, why, tally
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
		if tallies[i].Tasks > 0 {
			g := v.Grader[TemplateName(&t)]
			g.Add(tallies[i])
			v.Grader[TemplateName(&t)] = g
		}
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
// Drop* word (or adversary.Reason(name)) with a message saying why.
func ValidateTask(ctx context.Context, b proof.Backend, t *schemas.Task, files map[string]string) (reason, why string, err error) {
	reason, why, _, err = validateTask(ctx, b, t, files)
	return reason, why, err
}

// validateTask is ValidateTask with the task's tally as a grader.
func validateTask(ctx context.Context, b proof.Backend, t *schemas.Task, files map[string]string) (reason, why string, tally proof.Tally, err error) {
	if t.Reference == nil {
		return "", "", tally, nil
	}
	p, err := ProveTask(ctx, b, t, files)
	if err != nil {
		return "", "", tally, err
	}
	if p.ReferenceError == "missing_file" {
		return proof.DropMissingFile, "an input file has no host path", tally, nil
	}
	reason, why = p.Reason()
	if reason == "" && t.Steps > 0 {
		passing, err := ProveSkips(ctx, b, t, files)
		if err != nil {
			return "", "", tally, err
		}
		if len(passing) > 0 {
			reason, why = DropSkipPasses, "the checks accept "+strings.Join(passing, ", ")+" (a solution that leaves out a step of the chain)"
		}
	}
	return reason, why, p.Tally(), nil
}

// TemplateName is the template that wrote t, without its version
// ("table.stat"), or its generator when no template did.
func TemplateName(t *schemas.Task) string {
	name := strings.TrimPrefix(t.Generator, "template:")
	if i := strings.LastIndexByte(name, '@'); i >= 0 {
		name = name[:i]
	}
	return name
}

// ProveTask runs every proof of a task with a reference (proof.Prove): the
// reference and the mutant are played in sandboxes of their own; their
// collected outputs, the reference's printed output and every adversary's
// files are then verified together in one verification sandbox. The error
// is for a sandbox that could not run, or ctx.
func ProveTask(ctx context.Context, b proof.Backend, t *schemas.Task, files map[string]string) (proof.Proof, error) {
	var inputs []proof.Input
	for _, f := range t.Files {
		path, ok := files[f.ID]
		if !ok {
			return proof.Proof{ReferenceError: "missing_file"}, nil
		}
		inputs = append(inputs, proof.Input{Name: f.Name, Path: path})
	}
	store, err := os.MkdirTemp("", "synth-validate-")
	if err != nil {
		return proof.Proof{}, err
	}
	defer os.RemoveAll(store)
	arts := filepath.Join(store, "artifacts")
	ref, bat, err := proof.PlayBattery(ctx, b, t, t.Reference, inputs, arts)
	if err != nil {
		return proof.Proof{}, fmt.Errorf("task %s: %w", t.ID, err)
	}
	if ref.Failed != "" {
		return proof.Proof{ReferenceError: ref.Failed}, nil
	}
	// Only the reference is held to what its code printed.
	ref.Case.Observations = ref.Printed
	set := proof.Set{Reference: &ref.Case, Printed: ref.Printed, Battery: bat.Cases}
	if m := Mutant(t); m != nil {
		mut, err := proof.Play(ctx, b, t, m, inputs, arts)
		if err != nil {
			return proof.Proof{}, fmt.Errorf("task %s: %w", t.ID, err)
		}
		set.Wrong = []*checks.Case{&mut.Case}
	}
	o, err := proof.Prove(ctx, b, t, inputs, set)
	if err != nil {
		return proof.Proof{}, fmt.Errorf("task %s: %w", t.ID, err)
	}
	p := o.Proof()
	p.Unmoved = bat.Unmoved
	if bat.StaleAnswer != nil {
		// Verified apart, on its perturbed inputs: the proof's one batch
		// is already near the verification cell's time limit for tasks
		// whose checks load pickles.
		so, err := proof.Prove(ctx, b, t, inputs, proof.Set{Battery: []proof.Wrong{*bat.StaleAnswer}, Adversaries: []adversary.Adversary{}})
		if err != nil {
			return proof.Proof{}, fmt.Errorf("task %s: %w", t.ID, err)
		}
		p.Battery = append(p.Battery, so.Proof().Battery...)
	}
	return p, nil
}

// Mutant is a wrong solution for the task that its checks must reject, or
// nil when its template defines none.
func Mutant(t *schemas.Task) *schemas.Reference {
	name := TemplateName(t)
	for _, tm := range registry {
		if tm.Name == name && tm.mutate != nil {
			return tm.mutate(t)
		}
	}
	return nil
}

// ProveBattery plays t's battery of wrong solutions (proof.PlayBattery,
// with the stale_answer case) and verifies them, and only them: the
// proof a build adds to a task whose reference, mutant and adversaries
// it has already proven through its journaled rollouts. reason is empty
// when every wrong solution fails (battery_passes, stale_passes), and the
// rerun on perturbed inputs moved what the checks judge (data_ignored);
// a reference that does not run again is reference_error. tally is the
// task's account as a grader (proof.Proof.Tally). The error is for a
// sandbox that could not run, or ctx.
func ProveBattery(ctx context.Context, b proof.Backend, t *schemas.Task, files map[string]string) (reason, why string, tally proof.Tally, err error) {
	if t.Reference == nil {
		return "", "", proof.Tally{}, nil
	}
	var inputs []proof.Input
	for _, f := range t.Files {
		path, ok := files[f.ID]
		if !ok {
			return proof.DropMissingFile, "an input file has no host path", proof.Tally{}, nil
		}
		inputs = append(inputs, proof.Input{Name: f.Name, Path: path})
	}
	store, err := os.MkdirTemp("", "synth-battery-")
	if err != nil {
		return "", "", proof.Tally{}, err
	}
	defer os.RemoveAll(store)
	ref, bat, err := proof.PlayBattery(ctx, b, t, t.Reference, inputs, filepath.Join(store, "artifacts"))
	if err != nil {
		return "", "", proof.Tally{}, fmt.Errorf("task %s: %w", t.ID, err)
	}
	if ref.Failed != "" {
		return proof.DropReferenceError, ref.Failed, proof.Tally{}, nil
	}
	set := proof.Set{Battery: bat.Cases, Adversaries: []adversary.Adversary{}}
	if bat.StaleAnswer != nil {
		set.Battery = append(set.Battery, *bat.StaleAnswer)
	}
	o, err := proof.Prove(ctx, b, t, inputs, set)
	if err != nil {
		return "", "", proof.Tally{}, fmt.Errorf("task %s: %w", t.ID, err)
	}
	p := o.Proof()
	p.Unmoved = bat.Unmoved
	reason, why = p.Reason()
	return reason, why, p.Tally(), nil
}
