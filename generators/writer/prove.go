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

	"synth/checks"
	"synth/checks/adversary"
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
	DropDuplicate  = "duplicate"         // a near-duplicate of an earlier query for the same file
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
// adversaries' files are then verified together (checks.Verify). The task
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
	refCase, printed, failed, err := p.play(ctx, inputs, arts, &t, t.Reference)
	if err != nil {
		return t, nil, "", err
	}
	if failed != "" {
		return t, &refutation{DropReference, "the reference did not run: " + failed}, "", nil
	}
	// The transcript case carries the inputs too: checks.Verify wants every
	// case with checks to have a folder.
	cases := []checks.Case{refCase, {Checks: checks.AnswerChecks(t.Checks), Answer: printed, Transcript: true, Files: refCase.Files[:len(inputs)]}}
	wrongs := mutants(&t)
	if d.wrong != nil {
		wrongs = append([]named{{"wrong_solution", d.wrong}}, wrongs...)
	}
	for _, w := range wrongs {
		c, _, _, err := p.play(ctx, inputs, arts, &t, w.sol)
		if err != nil {
			return t, nil, "", err
		}
		cases = append(cases, c)
	}
	advs := p.adversaries()
	for i, a := range advs {
		r, ok, err := a.Make(&t, inputs)
		if err != nil {
			return t, nil, "", fmt.Errorf("adversary %s: %w", a.Name, err)
		}
		if !ok {
			cases = append(cases, checks.Case{})
			continue
		}
		c, err := r.Case(&t, inputs, filepath.Join(store, "adversary", strconv.Itoa(i)))
		if err != nil {
			return t, nil, "", fmt.Errorf("adversary %s: %w", a.Name, err)
		}
		cases = append(cases, c)
	}
	rs, err := verifyShared(ctx, p.Backend, cases)
	if err != nil {
		return t, nil, "", err
	}
	if ref := refute(rs, cases, wrongs, advs); ref != nil {
		return t, ref, "", nil
	}
	ref, unperturbed, err := p.perturbation(ctx, d, &t, inputs, refCase, store)
	if err != nil {
		return t, nil, "", fmt.Errorf("perturbation: %w", err)
	}
	return t, ref, unperturbed, nil
}

// longAnswer is the length above which an answer (a shotgun of numbers) is
// verified in a cell of its own: reading its numbers takes most of a cell's
// time.
const longAnswer = 2000

// verifyShared verifies cases as checks.Verify does, with less work: the
// answer checks of a case whose answer and messages an earlier case already
// had are not run again but copied (the adversaries that write files share
// one shotgun answer), and a long answer is verified in a cell of its own.
func verifyShared(ctx context.Context, b sandbox.Backend, cases []checks.Case) ([][]schemas.CheckResult, error) {
	run := make([]checks.Case, len(cases))
	origin := make([]int, len(cases)) // the case whose answer checks stand for this one's, or -1
	first := map[string]int{}
	for i, c := range cases {
		run[i], origin[i] = c, -1
		if len(c.Checks) == 0 || c.Transcript {
			continue
		}
		key := c.Answer + "\x00" + fmt.Sprint(c.Messages)
		if j, ok := first[key]; ok {
			run[i].Checks = slices.DeleteFunc(slices.Clone(c.Checks), isAnswer)
			origin[i] = j
			continue
		}
		first[key] = i
	}
	var short, long []int
	for i, c := range run {
		if len(c.Answer) > longAnswer && len(c.Checks) > 0 {
			long = append(long, i)
		} else {
			short = append(short, i)
		}
	}
	rs := make([][]schemas.CheckResult, len(cases))
	for _, group := range append([][]int{short}, chunks(long)...) {
		batch := make([]checks.Case, len(group))
		for k, i := range group {
			batch[k] = run[i]
		}
		out, err := checks.Verify(ctx, b, batch)
		if err != nil {
			return nil, err
		}
		for k, i := range group {
			rs[i] = out[k]
		}
	}
	for i, j := range origin {
		if j < 0 {
			continue
		}
		own, full := rs[i], make([]schemas.CheckResult, 0, len(cases[i].Checks))
		for k, c := range cases[i].Checks {
			if isAnswer(c) {
				full = append(full, rs[j][k])
			} else {
				full, own = append(full, own[0]), own[1:]
			}
		}
		rs[i] = full
	}
	return rs, nil
}

func isAnswer(c schemas.Check) bool { return c.Kind == schemas.CheckAnswer }

// chunks puts each index in a batch of its own.
func chunks(is []int) [][]int {
	out := make([][]int, len(is))
	for k, i := range is {
		out[k] = []int{i}
	}
	return out
}

// refute reads the verification of a proof's cases: the reference's, its
// printed output's, the wrong solutions' and the adversaries', in that
// order. nil means the task holds.
func refute(rs [][]schemas.CheckResult, cases []checks.Case, wrongs []named, advs []adversary.Adversary) *refutation {
	if msg := checks.FirstFailure(rs[0]); msg != "" {
		return &refutation{DropReference, "the reference fails a check: " + msg}
	}
	if msg := checks.FirstFailure(rs[1]); msg != "" {
		return &refutation{DropReference, "the reference's code does not print what its answer says: " + msg}
	}
	base := 2 + len(wrongs)
	for i, a := range advs {
		if len(cases[base+i].Checks) == 0 {
			continue
		}
		res := rs[base+i]
		if a.Name == "empty" {
			for k, r := range res {
				if r.OK {
					return &refutation{DropTrivial, fmt.Sprintf("check %d (%s) holds for an empty rollout that wrote nothing and answered nothing", k, r.Kind)}
				}
			}
		}
		if checks.FirstFailure(res) == "" && a.Name == literalEcho.Name {
			return &refutation{DropLiteralEcho, fmt.Sprintf("an answer and files made of the python checks' own literals pass every check (%s): compute what the answer is compared with from the inputs", a.Doc)}
		}
		if checks.FirstFailure(res) == "" {
			return &refutation{DropAdversary, fmt.Sprintf("the %s adversary (%s) passes every check", a.Name, a.Doc)}
		}
	}
	for i, w := range wrongs {
		if checks.FirstFailure(rs[2+i]) == "" {
			return &refutation{DropMutant, fmt.Sprintf("a wrong solution (%s) passes every check", w.name)}
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

// play runs a solution's steps in a fresh sandbox, collects what it wrote
// under output/ into store and closes the sandbox; the case it returns is
// what the checks judge. failed says which step did not run cleanly;
// printed is everything the steps printed.
func (p *Prover) play(ctx context.Context, inputs []sandbox.Input, store string, t *schemas.Task, sol *schemas.Reference) (c checks.Case, printed, failed string, err error) {
	sb, err := p.Backend.Open(ctx, sandbox.Spec{Inputs: inputs})
	if err != nil {
		return c, "", "", fmt.Errorf("open sandbox: %w", err)
	}
	defer sb.Close()
	var out strings.Builder
	for i, st := range sol.Steps {
		res, err := sb.Exec(ctx, st.Code)
		if err != nil {
			return c, "", "", fmt.Errorf("step %d: %w", i, err)
		}
		out.WriteString(res.Output + "\n")
		if res.Status != schemas.StatusOK && failed == "" {
			failed = fmt.Sprintf("step %d ended %s: %s", i, res.Status, lastLines(res.Output, 6))
		}
	}
	arts, err := sandbox.CollectArtifacts(sb.Workspace(), store)
	if err != nil {
		return c, "", "", err
	}
	sb.Close()
	c = checks.Case{Checks: t.Checks, Answer: sol.Answer, Messages: []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + sol.Answer}}}
	for _, in := range inputs {
		c.Files = append(c.Files, sandbox.Input{Name: "data/" + in.Name, Path: in.Path})
	}
	for _, a := range arts {
		c.Files = append(c.Files, sandbox.Input{Name: a.Path, Path: filepath.Join(store, a.SHA256[:2], a.SHA256)})
	}
	return c, out.String(), failed, nil
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
