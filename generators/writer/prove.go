package writer

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"synth/checks"
	"synth/checks/adversary"
	"synth/proof"
	"synth/sandbox"
	"synth/schemas"
)

// Reasons a draft is dropped. Each is counted in Stats.Dropped.
const (
	DropUnparsable = "unparsable"        // no JSON object, or one that does not fit the task schema
	DropTrivial    = "trivial_check"     // a check holds whatever the solver does
	DropExpression = "expression_failed" // an expected value's expression did not evaluate to a finite number
	DropReference  = "reference_failed"  // the reference raised, failed a check, or does not print what it answers
	DropAdversary  = "adversary_passed"  // an adversary (the empty rollout, a shotgun answer, a copied input, …) passes every check
	DropMutant     = "mutant_passed"     // a wrong-but-plausible solution passes every check
	// DropBattery: a wrong solution of the battery made from the reference
	// (proof.PlayBattery: wrong values in its tables, its answer's numbers
	// moved, its answer from perturbed inputs; proof.RandomAnswers: an
	// unrelated answer beside its files) passes every check.
	DropBattery = "battery_passed"
	// DropUntested: a python check's pass can turn on a condition that
	// reads the answer and that no tested answer (the reference's, the
	// battery's, random ones) drove both ways (proof.Untested): a
	// backdoor, whatever its form.
	DropUntested  = "check_untested_condition"
	DropDuplicate = "duplicate" // a near-duplicate of an earlier query for the same file
	// DropBackdoor: a python check branches on a constant found in the
	// answer (if 'TOKEN' in answer: ...), so its verdict need not depend on
	// the data and the work.
	DropBackdoor = "check_branches_on_answer"
	// DropLiteralEcho: an answer and output files made of the python
	// checks' own literals pass every check (the literal_echo adversary).
	DropLiteralEcho = "literal_echo_passed"
	// DropDataIgnored: on perturbed inputs an expression gives the same
	// value, or the original answer and outputs still pass (every check, or
	// a check of the answer alone): the verdict does not depend on the data.
	DropDataIgnored = "check_ignores_data"
	// DropPerturbed: the reference, rerun on perturbed inputs, raises or
	// fails a check whose expected value was recomputed there.
	DropPerturbed = "perturbed_reference_failed"
)

// Prover proves drafted tasks in the sandbox before they count.
type Prover struct {
	Backend sandbox.Backend
	// Adversaries must each fail every task; nil: adversary.All() and
	// echo_query. The one named "empty" must fail every check, not only
	// one.
	Adversaries []adversary.Adversary
	// Hacker, when set, tries each draft as an LLM hacker; its exploit
	// joins the adversaries.
	Hacker *Hacker

	mu     sync.Mutex
	grader proof.Tally
}

// tally adds a proof's account as a grader to the prover's (Grader).
func (p *Prover) tally(pr proof.Proof) {
	p.mu.Lock()
	p.grader.Add(pr.Tally())
	p.mu.Unlock()
}

// Grader is how the checks of every draft proven so far fared against
// the wrong solutions tried on them, drafts dropped for one included.
func (p *Prover) Grader() proof.Tally {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.grader
}

func (p *Prover) adversaries() []adversary.Adversary {
	if p.Adversaries != nil {
		return p.Adversaries
	}
	return append(adversary.All(), echoQuery, literalEcho)
}

// Describe says what a proof runs, for reports.
func (p *Prover) Describe() string {
	var names []string
	for _, a := range p.adversaries() {
		names = append(names, a.Name)
	}
	return fmt.Sprintf("no python check branches on a constant in the answer; expected values computed in the sandbox; the reference passes; every check fails an empty rollout; the adversaries (%s), the writer's wrong solution and mutants of the reference (%s) fail; on perturbed inputs (%s) every expression changes, the original answer fails and the reference passes",
		strings.Join(names, ", "), strings.Join(MutantNames, ", "), perturbRules)
}

// longAnswer is the length above which an answer (a shotgun of numbers) is
// verified in a sandbox of its own: reading its numbers takes most of a
// cell's time, and the writer's adversaries give several.
const longAnswer = 2000

// refutation is why a draft failed its proof: a Drop* reason and a message
// the writer is shown in the repair turn.
type refutation struct {
	reason, msg string
}

// prove rejects a draft whose python checks branch on a constant in the
// answer, freezes its expressions and proves its task: the reference
// passes every check and prints what it answers; every check fails the
// empty rollout; every other adversary, the writer's wrong solution and
// each mechanical mutant of the reference fail at least one check. The
// solutions run in sandboxes of their own; their collected outputs and the
// adversaries' files are then verified together (proof.Prove). The task
// is returned with its values frozen, or the refutation. A task that holds
// is then proven on perturbed inputs (perturbation); unperturbed says why
// that proof did not run, when it did not. The error is for a sandbox that
// could not run, or ctx.
func (p *Prover) prove(ctx context.Context, d parsed, inputs []sandbox.Input) (schemas.Task, *refutation, string, error) {
	t := d.task
	t.Checks = append([]schemas.Check(nil), t.Checks...)
	if found, err := p.branchOnAnswer(ctx, t.Checks); err != nil || found != "" {
		if err != nil {
			return t, nil, "", err
		}
		return t, &refutation{DropBackdoor, fmt.Sprintf("a python check branches on a constant in the answer (%s): compare the answer only with values computed from the inputs, as a plain assert", found)}, "", nil
	}
	if ref, err := p.freeze(ctx, &t, d.exprs, inputs); err != nil || ref != nil {
		return t, ref, "", err
	}
	store, err := os.MkdirTemp("", "synth-prove-")
	if err != nil {
		return t, nil, "", err
	}
	defer os.RemoveAll(store)
	arts := filepath.Join(store, "artifacts")
	refPlay, bat, err := proof.PlayBattery(ctx, p.Backend, &t, t.Reference, inputs, arts)
	if err != nil {
		return t, nil, "", err
	}
	if refPlay.Failed != "" {
		return t, &refutation{DropReference, "the reference did not run: " + refPlay.Failed}, "", nil
	}
	refCase := refPlay.Case
	advs := p.adversaries()
	if p.Hacker != nil {
		a, err := p.Hacker.adversary(ctx, &t, inputs)
		if err != nil {
			return t, nil, "", err
		}
		advs = append(slices.Clone(advs), a)
	}
	set := proof.Set{Reference: &refCase, Printed: refPlay.Printed, Adversaries: advs, LongAnswer: longAnswer,
		Battery: append(bat.Cases, proof.RandomAnswers(refCase, t.Query)...)}
	wrongs := mutants(&t)
	if d.wrong != nil {
		wrongs = append([]named{{"wrong_solution", d.wrong}}, wrongs...)
	}
	for _, w := range wrongs {
		wp, err := proof.Play(ctx, p.Backend, &t, w.sol, inputs, arts)
		if err != nil {
			return t, nil, "", err
		}
		set.Wrong = append(set.Wrong, &wp.Case)
	}
	o, err := proof.Prove(ctx, p.Backend, &t, inputs, set)
	if err != nil {
		return t, nil, "", err
	}
	p.tally(o.Proof())
	if ref := refute(o, wrongs, set.Adversaries); ref != nil {
		return t, ref, "", nil
	}
	traced := []checks.Case{refCase}
	for _, w := range set.Battery {
		traced = append(traced, w.Case)
	}
	if msg, err := proof.Untested(ctx, p.Backend, &t, traced); err != nil || msg != "" {
		if err != nil {
			return t, nil, "", fmt.Errorf("trace checks: %w", err)
		}
		return t, &refutation{DropUntested, msg + ": compare the answer with values computed from the inputs, with no other way to pass"}, "", nil
	}
	ref, unperturbed, err := p.perturbation(ctx, d, &t, inputs, refCase, store)
	if err != nil {
		return t, nil, "", fmt.Errorf("perturbation: %w", err)
	}
	return t, ref, unperturbed, nil
}

// refute reads the outcome of a proof (proof.Prove) in the writer's
// words: the reference, its printed output, the adversaries, then the
// wrong solutions (wrongs, in the order they were proven); advs are the
// adversaries in the order they were tried. nil means the
// task holds.
func refute(o proof.Outcome, wrongs []named, advs []adversary.Adversary) *refutation {
	if msg := checks.FirstFailure(o.Reference); msg != "" {
		return &refutation{DropReference, "the reference fails a check: " + msg}
	}
	if msg := checks.FirstFailure(o.Printed); msg != "" {
		return &refutation{DropReference, "the reference's code does not print what its answer says: " + msg}
	}
	for i, a := range o.Adversaries {
		doc := advs[i].Doc
		if !a.Applied || len(a.Checks) == 0 {
			continue
		}
		if a.Adversary == adversary.Empty {
			for k, r := range a.Checks {
				if r.OK {
					return &refutation{DropTrivial, fmt.Sprintf("check %d (%s) holds for an empty rollout that wrote nothing and answered nothing", k, r.Kind)}
				}
			}
		}
		if !a.Passed {
			continue
		}
		if a.Adversary == literalEcho.Name {
			return &refutation{DropLiteralEcho, fmt.Sprintf("an answer and files made of the python checks' own literals pass every check (%s): compute what the answer is compared with from the inputs", doc)}
		}
		return &refutation{DropAdversary, fmt.Sprintf("the %s adversary (%s) passes every check", a.Adversary, doc)}
	}
	for i, w := range wrongs {
		if checks.FirstFailure(o.Wrong[i]) == "" {
			return &refutation{DropMutant, fmt.Sprintf("a wrong solution (%s) passes every check", w.name)}
		}
	}
	for _, b := range o.Proof().Battery {
		if b.Passed {
			return &refutation{DropBattery, fmt.Sprintf("a wrong solution made from the reference (%s: %s) passes every check: compare what the answer states and the outputs hold with values computed from the inputs", b.Name, proof.BatteryDoc(b.Name))}
		}
	}
	return nil
}

// freeze evaluates the draft's expressions and writes their values into
// t's checks.
func (p *Prover) freeze(ctx context.Context, t *schemas.Task, exprs []expr, inputs []sandbox.Input) (*refutation, error) {
	if len(exprs) == 0 {
		return nil, nil
	}
	vals, ref, err := p.evaluate(ctx, exprs, inputs)
	if err != nil || ref != nil {
		return ref, err
	}
	for i, e := range exprs {
		c := &t.Checks[e.check]
		switch e.field {
		case "number":
			n := *c.Number
			n.Value = vals[i]
			c.Number = &n
			if msg := trivialTolerance(c.Number); msg != "" {
				return &refutation{DropTrivial, fmt.Sprintf("check %d (%s) %s", e.check, c.Kind, msg)}, nil
			}
		case "rows":
			if vals[i] < 0 || vals[i] != math.Trunc(vals[i]) {
				return &refutation{DropExpression, fmt.Sprintf("check %d: rows expression %q gave %v, not a row count", e.check, e.code, vals[i])}, nil
			}
			r := int(vals[i])
			c.Rows = &r
		}
	}
	return nil, nil
}

// exprMark starts the line an expression cell prints its value on.
const exprMark = "\x1esynth-expr "

// evaluate computes each expression in a fresh sandbox holding only the
// inputs, with pandas as pd and numpy as np imported.
func (p *Prover) evaluate(ctx context.Context, exprs []expr, inputs []sandbox.Input) ([]float64, *refutation, error) {
	sb, err := p.Backend.Open(ctx, sandbox.Spec{Inputs: inputs})
	if err != nil {
		return nil, nil, fmt.Errorf("open sandbox: %w", err)
	}
	defer sb.Close()
	if _, err := sb.Exec(ctx, "import json, math\nimport pandas as pd\nimport numpy as np"); err != nil {
		return nil, nil, fmt.Errorf("expression: %w", err)
	}
	vals := make([]float64, len(exprs))
	for i, e := range exprs {
		src, _ := json.Marshal(e.code)
		res, err := sb.Exec(ctx, fmt.Sprintf("print(%q + json.dumps(float(eval(compile(%s, '<expr>', 'eval')))))", exprMark, src))
		if err != nil {
			return nil, nil, fmt.Errorf("expression %q: %w", e.code, err)
		}
		v, ok := markedValue(res.Output)
		if res.Status != schemas.StatusOK || !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			msg := proof.LastLines(res.Output, 4)
			if ok {
				msg = fmt.Sprintf("gave %v", v)
			}
			return nil, &refutation{DropExpression, fmt.Sprintf("check %d: the expression %q did not give a finite number: %s", e.check, e.code, msg)}, nil
		}
		vals[i] = v
	}
	return vals, nil, nil
}

func markedValue(out string) (float64, bool) {
	i := strings.LastIndex(out, exprMark)
	if i < 0 {
		return 0, false
	}
	line, _, _ := strings.Cut(out[i+len(exprMark):], "\n")
	v, err := strconv.ParseFloat(strings.TrimSpace(line), 64)
	return v, err == nil
}
