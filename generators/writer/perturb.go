package writer

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"synth/checks"
	"synth/proof"
	"synth/sandbox"
	"synth/schemas"
)

const perturbMark = "\x1esynth-perturb "

// perturb writes a perturbed copy of each input into store, in a sandbox
// of its own. perturbed holds every input, each either its perturbed copy
// or, when it could not be perturbed, the original; changed counts the
// copies; skipped says why the others were left as they are. The error is
// for a sandbox that could not run.
func (p *Prover) perturb(ctx context.Context, files []schemas.TaskFile, inputs []sandbox.Input, store string) (perturbed []sandbox.Input, changed int, skipped []string, err error) {
	list := [][2]string{}
	for i, in := range inputs {
		kind := ""
		if i < len(files) {
			kind = files[i].Type
		}
		list = append(list, [2]string{in.Name, kind})
	}
	sb, err := p.Backend.Open(ctx, sandbox.Spec{Inputs: inputs})
	if err != nil {
		return nil, 0, nil, fmt.Errorf("perturb: open sandbox: %w", err)
	}
	defer sb.Close()
	cell := proof.PerturbCell(list, "output/{i}/{name}", perturbMark)
	res, err := sb.Exec(ctx, cell)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("perturb: %w", err)
	}
	i := strings.LastIndex(res.Output, perturbMark)
	if res.Status != schemas.StatusOK || i < 0 {
		return nil, 0, nil, fmt.Errorf("perturb did not run (%s): %s", res.Status, proof.LastLines(res.Output, 4))
	}
	line, _, _ := strings.Cut(res.Output[i+len(perturbMark):], "\n")
	var verdicts []struct {
		OK   bool   `json:"ok"`
		Skip string `json:"skip"`
	}
	if err := json.Unmarshal([]byte(line), &verdicts); err != nil || len(verdicts) != len(inputs) {
		return nil, 0, nil, fmt.Errorf("perturb: unreadable verdicts %q", line)
	}
	arts, err := sandbox.CollectArtifacts(sb.Workspace(), store)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("perturb: %w", err)
	}
	sb.Close()
	at := map[string]string{}
	for _, a := range arts {
		at[a.Path] = filepath.Join(store, a.SHA256[:2], a.SHA256)
	}
	for i, in := range inputs {
		copyPath := at["output/"+strconv.Itoa(i)+"/"+in.Name]
		switch {
		case verdicts[i].OK && copyPath != "":
			perturbed = append(perturbed, sandbox.Input{Name: in.Name, Path: copyPath})
			changed++
		default:
			why := verdicts[i].Skip
			if why == "" {
				why = "no perturbed copy was written"
			}
			skipped = append(skipped, why)
			perturbed = append(perturbed, in)
		}
	}
	return perturbed, changed, skipped, nil
}

// perturbation proves that a task's verdict depends on its inputs: the
// reference is rerun on a perturbed copy of them and the checks' expected
// values recomputed there (expressions evaluated again, python checks run
// against the perturbed files). The task holds when
//   - every expression gives another value on the perturbed inputs;
//   - the original answer and outputs, judged on the perturbed inputs,
//     fail a check, and fail every check that judges the answer alone (an
//     answer number, a python check of the answer or messages that reads no
//     output);
//   - the reference rerun on the perturbed inputs passes every check, its
//     printed output standing for its answer.
//
// t is the task proven on the original inputs, orig the reference's case
// there. unperturbed says why the proof did not run (no input could be
// perturbed); the refutation says why the task fails it.
func (p *Prover) perturbation(ctx context.Context, d parsed, t *schemas.Task, inputs []sandbox.Input, orig checks.Case, store string) (ref *refutation, unperturbed string, err error) {
	pins, changed, skipped, err := p.perturb(ctx, t.Files, inputs, filepath.Join(store, "perturbed"))
	if err != nil || changed == 0 {
		return nil, strings.Join(skipped, "; "), err
	}
	pt := d.task
	pt.Checks = append([]schemas.Check(nil), d.task.Checks...)
	if r, err := p.freeze(ctx, &pt, d.exprs, pins); err != nil || r != nil {
		if r != nil {
			r = &refutation{DropPerturbed, "on perturbed inputs: " + r.msg}
		}
		return r, "", err
	}
	for _, e := range d.exprs {
		was, now := exprValue(t.Checks[e.check], e.field), exprValue(pt.Checks[e.check], e.field)
		if was == now {
			return &refutation{DropDataIgnored, fmt.Sprintf("check %d: the expression %q gives %v on perturbed inputs too (%s): compute the expected value from the data the task is about", e.check, e.code, now, perturbRules)}, "", nil
		}
	}
	rerun, err := proof.Play(ctx, p.Backend, &pt, t.Reference, pins, filepath.Join(store, "artifacts"))
	if err != nil {
		return nil, "", err
	}
	if rerun.Failed != "" {
		return &refutation{DropPerturbed, fmt.Sprintf("the reference does not run on perturbed inputs (%s): %s", perturbRules, rerun.Failed)}, "", nil
	}
	refCase, printed := rerun.Case, rerun.Output()
	reran := checks.Case{Checks: pt.Checks, Answer: printed, Transcript: true, Files: refCase.Files,
		Messages: []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + printed}}}
	old := checks.Case{Checks: pt.Checks, Answer: orig.Answer, Messages: orig.Messages,
		Files: append(append([]sandbox.Input(nil), refCase.Files[:len(pins)]...), orig.Files[len(inputs):]...)}
	rs, err := proof.Verify(ctx, p.Backend, []checks.Case{reran, old}, longAnswer)
	if err != nil {
		return nil, "", err
	}
	allPass := true
	for k, r := range rs[1] {
		allPass = allPass && r.OK
		if r.OK && judgesAnswerAlone(pt.Checks[k]) {
			return &refutation{DropDataIgnored, fmt.Sprintf("check %d (%s) still passes the original answer on perturbed inputs (%s): its verdict does not depend on the data; compute what the answer is compared with from the inputs", k, r.Kind, perturbRules)}, "", nil
		}
	}
	if allPass {
		return &refutation{DropDataIgnored, fmt.Sprintf("the original answer and outputs pass every check on perturbed inputs (%s): the checks do not depend on the data", perturbRules)}, "", nil
	}
	for k, r := range rs[0] {
		if !r.OK {
			return &refutation{DropPerturbed, fmt.Sprintf("the reference rerun on perturbed inputs (%s) fails check %d: %s: %s", perturbRules, k, r.Kind, r.Message)}, "", nil
		}
	}
	return nil, "", nil
}

// perturbRules says how inputs are perturbed, for the writer's repair turn.
const perturbRules = proof.PerturbRules

func exprValue(c schemas.Check, field string) float64 {
	switch {
	case field == "number" && c.Number != nil:
		return c.Number.Value
	case field == "rows" && c.Rows != nil:
		return float64(*c.Rows)
	}
	return math.NaN()
}

// judgesAnswerAlone reports whether c judges the final answer or the
// messages without reading an output file: a number in the answer, or a
// python check of answer or messages that names no output.
func judgesAnswerAlone(c schemas.Check) bool {
	switch c.Kind {
	case schemas.CheckAnswer:
		return c.Number != nil
	case schemas.CheckPython:
		return answerNames.MatchString(c.Code) && !strings.Contains(c.Code, "output")
	}
	return false
}

var answerNames = regexp.MustCompile(`\b(answer|messages)\b`)
