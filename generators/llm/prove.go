package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// Reasons a draft is dropped. Each is counted in Stats.Dropped.
const (
	DropUnparsable = "unparsable"        // no JSON object, or one that does not fit the task schema
	DropTrivial    = "trivial_check"     // a check holds whatever the solver does
	DropExpression = "expression_failed" // an expected value's expression did not evaluate to a finite number
	DropReference  = "reference_failed"  // the reference raised, failed a check, or does not print what it answers
	DropAdversary  = "adversary_passed"  // the empty rollout or an adversary passes every check
	DropMutant     = "mutant_passed"     // a wrong-but-plausible solution passes every check
	DropDuplicate  = "duplicate"         // a near-duplicate of an earlier query for the same file
)

// DropReasons lists the reasons in the order reports show them.
var DropReasons = []string{DropUnparsable, DropTrivial, DropExpression, DropReference, DropAdversary, DropMutant, DropDuplicate}

// Adversary is a rollout a task's checks must reject: a cheat or a
// do-nothing. Solve returns its steps and final answer for a task, nil when
// it does not apply.
type Adversary struct {
	Name  string
	Solve func(t *schemas.Task) *schemas.Reference
}

// Prover proves drafted tasks in the sandbox before they count.
type Prover struct {
	Backend sandbox.Backend
	// Adversaries must each fail every task; nil: DefaultAdversaries.
	Adversaries []Adversary
}

// Describe says what a proof runs, for reports.
func (p *Prover) Describe() string {
	names := []string{"empty"}
	advs := p.Adversaries
	if advs == nil {
		advs = DefaultAdversaries
	}
	for _, a := range advs {
		names = append(names, a.Name)
	}
	return fmt.Sprintf("expected values computed in the sandbox; the reference passes; every check fails an empty rollout; the %s rollouts, the writer's wrong solution and mutants of the reference (%s) fail",
		strings.Join(names, ", "), strings.Join(MutantNames, ", "))
}

// refutation is why a draft failed its proof: a Drop* reason and a message
// the writer is shown in the repair turn.
type refutation struct {
	reason, msg string
}

// prove freezes the draft's expressions and proves its task: the reference
// passes every check and prints what it answers; every check fails the
// empty rollout; every adversary, the writer's wrong solution and each
// mechanical mutant of the reference fail at least one check. The task is
// returned with its values frozen, or the refutation. The error is for a
// sandbox that could not run, or ctx.
func (p *Prover) prove(ctx context.Context, d parsed, inputs []sandbox.Input) (schemas.Task, *refutation, error) {
	t := d.task
	t.Checks = append([]schemas.Check(nil), t.Checks...)
	if len(d.exprs) > 0 {
		vals, ref, err := p.evaluate(ctx, d.exprs, inputs)
		if err != nil || ref != nil {
			return t, ref, err
		}
		for i, e := range d.exprs {
			c := &t.Checks[e.check]
			switch e.field {
			case "number":
				n := *c.Number
				n.Value = vals[i]
				c.Number = &n
				if msg := trivialTolerance(c.Number); msg != "" {
					return t, &refutation{DropTrivial, fmt.Sprintf("check %d (%s) %s", e.check, c.Kind, msg)}, nil
				}
			case "rows":
				if vals[i] < 0 || vals[i] != math.Trunc(vals[i]) {
					return t, &refutation{DropExpression, fmt.Sprintf("check %d: rows expression %q gave %v, not a row count", e.check, e.code, vals[i])}, nil
				}
				r := int(vals[i])
				c.Rows = &r
			}
		}
	}
	rs, printed, failed, err := p.try(ctx, inputs, &t, t.Reference, true)
	switch {
	case err != nil:
		return t, nil, err
	case failed != "":
		return t, &refutation{DropReference, "the reference did not run: " + failed}, nil
	case firstFailure(rs) != "":
		return t, &refutation{DropReference, "the reference fails a check: " + firstFailure(rs)}, nil
	case firstFailure(printed) != "":
		return t, &refutation{DropReference, "the reference's code does not print what its answer says: " + firstFailure(printed)}, nil
	}
	rs, _, _, err = p.try(ctx, inputs, &t, &schemas.Reference{}, false)
	if err != nil {
		return t, nil, err
	}
	for i, r := range rs {
		if r.OK {
			return t, &refutation{DropTrivial, fmt.Sprintf("check %d (%s) holds for an empty rollout that ran no code and answered nothing", i, r.Kind)}, nil
		}
	}
	advs := p.Adversaries
	if advs == nil {
		advs = DefaultAdversaries
	}
	for _, a := range advs {
		sol := a.Solve(&t)
		if sol == nil {
			continue
		}
		if pass, err := p.passes(ctx, inputs, &t, sol); err != nil || pass {
			return t, refutedIf(pass, DropAdversary, "the %s adversary passes every check", a.Name), err
		}
	}
	wrongs := mutants(&t)
	if d.wrong != nil {
		wrongs = append([]named{{"wrong_solution", d.wrong}}, wrongs...)
	}
	for _, w := range wrongs {
		if pass, err := p.passes(ctx, inputs, &t, w.sol); err != nil || pass {
			return t, refutedIf(pass, DropMutant, "a wrong solution (%s) passes every check", w.name), err
		}
	}
	return t, nil, nil
}

func refutedIf(pass bool, reason, format string, args ...any) *refutation {
	if !pass {
		return nil
	}
	return &refutation{reason, fmt.Sprintf(format, args...)}
}

// passes runs a solution and reports whether it passes every check.
func (p *Prover) passes(ctx context.Context, inputs []sandbox.Input, t *schemas.Task, sol *schemas.Reference) (bool, error) {
	rs, _, _, err := p.try(ctx, inputs, t, sol, false)
	return err == nil && firstFailure(rs) == "", err
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
			msg := lastLines(res.Output, 4)
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

// try runs a solution's steps in a fresh sandbox and then the task's checks;
// failed says which step did not run cleanly. With printed, it also runs
// the answer checks against what the steps printed.
func (p *Prover) try(ctx context.Context, inputs []sandbox.Input, t *schemas.Task, sol *schemas.Reference, printed bool) (rs, prs []schemas.CheckResult, failed string, err error) {
	sb, err := p.Backend.Open(ctx, sandbox.Spec{Inputs: inputs})
	if err != nil {
		return nil, nil, "", fmt.Errorf("open sandbox: %w", err)
	}
	defer sb.Close()
	var out strings.Builder
	for i, st := range sol.Steps {
		res, err := sb.Exec(ctx, st.Code)
		if err != nil {
			return nil, nil, "", fmt.Errorf("step %d: %w", i, err)
		}
		out.WriteString(res.Output + "\n")
		if res.Status != schemas.StatusOK && failed == "" {
			failed = fmt.Sprintf("step %d ended %s: %s", i, res.Status, lastLines(res.Output, 6))
		}
	}
	msgs := []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + sol.Answer}}
	if rs, err = checks.Verify(ctx, sb, t.Checks, sol.Answer, msgs); err != nil {
		return nil, nil, "", err
	}
	var ans []schemas.Check
	for _, c := range t.Checks {
		if c.Kind == schemas.CheckAnswer {
			ans = append(ans, c)
		}
	}
	if printed && len(ans) > 0 {
		if prs, err = checks.Verify(ctx, sb, ans, out.String(), nil); err != nil {
			return nil, nil, "", err
		}
	}
	return rs, prs, failed, nil
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
