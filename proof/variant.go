package proof

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// Where MakeVariant writes the perturbed inputs, one folder per input.
const (
	variantInputsDir = "output/.synth-variant/"
	variantMark      = "\x1esynth-variant "
)

// Variant is a task's twin on perturbed inputs, as MakeVariant made it.
type Variant struct {
	// Task is the twin: the original's query, inputs and reference code,
	// its inputs perturbed, its answer the numbers the reference printed
	// on them, its checks' literal values (an answer's number, a table's
	// row count) re-derived from that printout. Set only when Skipped is
	// empty.
	Task schemas.Task
	// Inputs maps each twin input's file id to its host path (in the
	// store, named by its digest).
	Inputs map[string]string
	// Moved says that the original's answer and outputs fail the twin's
	// checks: the truth moved. A twin whose truth did not move is kept and
	// flagged (its task does not depend on the perturbed data).
	Moved bool
	// Original is the reference played on the original inputs (its answer
	// and outputs), which a stale solution of the twin replays.
	Original checks.Case
	// OriginalPrinted is what the reference printed on the original
	// inputs, which a stale solution shows again.
	OriginalPrinted string
	// Skipped says why there is no twin.
	Skipped string
}

// MakeVariant makes t's twin: it plays t's reference on inputs, perturbs
// the inputs by the battery's rules (PerturbRules, through PerturbCell),
// plays the reference again in a fresh sandbox holding the perturbed
// copies, and proves the twin: its reference passes its checks, an empty
// rollout fails them. Files go into store as sandbox.CollectArtifacts
// stores them. A task without a reference, without a perturbable input,
// whose reference fails on either input, or whose checks cannot be
// re-derived is Skipped, not an error; the error is for a sandbox that
// could not run or ctx. made, when not nil, maps each input name (a
// benchmark's data/ holds one file per name) perturbed before to its perturbed copy: a file perturbed again takes
// that copy, so twins that share an input share its copy (an xlsx writer
// stamps the time), and new copies are added to it.
func MakeVariant(ctx context.Context, b sandbox.Backend, t *schemas.Task, inputs []sandbox.Input, store string, made map[string]string) (Variant, error) {
	var v Variant
	if t.Reference == nil {
		v.Skipped = "no reference solution"
		return v, nil
	}
	if len(inputs) == 0 {
		v.Skipped = "no input file to perturb"
		return v, nil
	}
	orig, perturbed, why, err := playAndPerturb(ctx, b, t, inputs, store)
	if err != nil || why != "" {
		v.Skipped = why
		return v, err
	}
	for i := range perturbed {
		if perturbed[i].Path == inputs[i].Path || made == nil {
			continue
		}
		if p, ok := made[inputs[i].Name]; ok {
			perturbed[i].Path = p
		} else {
			made[inputs[i].Name] = perturbed[i].Path
		}
	}
	v.Original, v.OriginalPrinted = orig.Case, orig.Output()
	rerun, err := Play(ctx, b, t, t.Reference, perturbed, store)
	if err != nil {
		return v, fmt.Errorf("variant: %w", err)
	}
	if rerun.Failed != "" {
		v.Skipped = "the reference did not run on the perturbed inputs: " + rerun.Failed
		return v, nil
	}
	twin, why := twinTask(t, perturbed, orig.Printed, rerun.Printed)
	if why != "" {
		v.Skipped = why
		return v, nil
	}
	// The twin's reference is judged as eval judges a rollout: an answer
	// number its code never printed fails, so a number the mapping left
	// stale cannot pass the twin's own (equally stale) check.
	refCase := rerun.Case
	refCase.Checks, refCase.Answer, refCase.Messages = twin.Checks, twin.Reference.Answer, finished(twin.Reference.Answer)
	refCase.Observations = rerun.Printed
	empty := checks.Case{Checks: twin.Checks, Messages: finished(""), Files: CaseInputs(perturbed)}
	stale := orig.Case
	stale.Checks, stale.Observations = twin.Checks, orig.Printed
	stale.Files = append(CaseInputs(perturbed), orig.Case.Files[len(inputs):]...)
	rs, err := Verify(ctx, b, []checks.Case{refCase, empty, stale}, 0)
	if err != nil {
		return v, fmt.Errorf("variant: %w", err)
	}
	if r := rs[0]; !allOK(r) {
		v.Skipped = "the twin's reference fails its checks: " + firstFailure(r)
		return v, nil
	}
	if allOK(rs[1]) {
		v.Skipped = "an empty rollout passes the twin's checks"
		return v, nil
	}
	v.Task, v.Moved = twin, !allOK(rs[2])
	v.Inputs = map[string]string{}
	for i, in := range perturbed {
		v.Inputs[twin.Files[i].ID] = in.Path
	}
	return v, nil
}

// playAndPerturb plays t's reference on inputs and, in the same sandbox,
// writes a perturbed copy of each input; perturbed holds them (an input
// that could not be perturbed stays as it was). why says why there is no
// twin when no input was perturbed or the reference failed.
func playAndPerturb(ctx context.Context, b sandbox.Backend, t *schemas.Task, inputs []sandbox.Input, store string) (orig Played, perturbed []sandbox.Input, why string, err error) {
	sb, err := b.Open(ctx, sandbox.Spec{Inputs: inputs})
	if err != nil {
		return orig, nil, "", fmt.Errorf("variant: open sandbox: %w", err)
	}
	defer sb.Close()
	if err := runSteps(ctx, sb, t.Reference, &orig); err != nil {
		return orig, nil, "", fmt.Errorf("variant: %w", err)
	}
	if orig.Failed != "" {
		return orig, nil, "the reference did not run: " + orig.Failed, nil
	}
	res, err := sb.Exec(ctx, variantPerturbCell(inputKinds(t, inputs), variantInputsDir+"{i}/{name}", variantMark))
	if err != nil {
		return orig, nil, "", fmt.Errorf("variant: perturb: %w", err)
	}
	var verdicts []struct {
		OK   bool   `json:"ok"`
		Skip string `json:"skip"`
	}
	i := strings.LastIndex(res.Output, variantMark)
	if line := ""; i >= 0 {
		line, _, _ = strings.Cut(res.Output[i+len(variantMark):], "\n")
		if json.Unmarshal([]byte(line), &verdicts) != nil || len(verdicts) != len(inputs) {
			i = -1
		}
	}
	if res.Status != schemas.StatusOK || i < 0 {
		return orig, nil, fmt.Sprintf("the inputs could not be perturbed (%s): %s", res.Status, LastLines(res.Output, 4)), nil
	}
	arts, err := sandbox.CollectArtifacts(sb.Workspace(), store)
	if err != nil {
		return orig, nil, "", fmt.Errorf("variant: %w", err)
	}
	sb.Close()
	copies := map[string]string{}
	var outs []sandbox.Input
	for _, a := range arts {
		host := filepath.Join(store, a.SHA256[:2], a.SHA256)
		if rest, ok := strings.CutPrefix(a.Path, variantInputsDir); ok {
			copies[rest] = host
			continue
		}
		outs = append(outs, sandbox.Input{Name: a.Path, Path: host})
	}
	orig.Case = playedCase(t, t.Reference, inputs, outs)
	var skips []string
	for k, in := range inputs {
		host, ok := copies[fmt.Sprintf("%d/%s", k, in.Name)]
		if !ok {
			// Every input is copied out of the sandbox, perturbed or not: a
			// twin never reads a host path of the (untrusted) benchmark.
			return orig, nil, fmt.Sprintf("data/%s did not come out of the sandbox", in.Name), nil
		}
		perturbed = append(perturbed, sandbox.Input{Name: in.Name, Path: host})
		if !verdicts[k].OK {
			skips = append(skips, in.Name+": "+verdicts[k].Skip)
		}
	}
	if len(skips) == len(inputs) {
		return orig, nil, "no input could be perturbed (" + strings.Join(skips, "; ") + ")", nil
	}
	return orig, perturbed, "", nil
}

// twinTask is t on the perturbed inputs: new file ids (the digests of the
// perturbed copies), the reference's answer with each number it printed
// replaced by what the rerun printed in the same place, and the checks'
// literal numbers re-derived the same way. why names a number that cannot
// be placed in the rerun's printout.
func twinTask(t *schemas.Task, perturbed []sandbox.Input, printed, rerun []string) (twin schemas.Task, why string) {
	twin = *t
	twin.Files = make([]schemas.TaskFile, len(t.Files))
	h := sha256.New()
	fmt.Fprintf(h, "variant\x00%s", t.ID)
	for i, f := range t.Files {
		f.ID = path.Base(perturbed[i].Path) // the store names a file by its digest
		twin.Files[i] = f
		fmt.Fprintf(h, "\x00%s", f.ID)
	}
	twin.ID = hex.EncodeToString(h.Sum(nil))[:16]
	ref := *t.Reference
	answer, moved, why := remapAnswer(t, printed, rerun)
	if why != "" {
		return twin, why
	}
	ref.Answer = answer
	twin.Reference = &ref
	twin.Checks = make([]schemas.Check, len(t.Checks))
	for i, c := range t.Checks {
		switch {
		case c.Kind == schemas.CheckAnswer && c.Number != nil:
			n := *c.Number
			k := -1
			for j, tk := range moved {
				if within(&n, tk.was, decimals(tk.text)) {
					k = j
					break
				}
			}
			if k >= 0 {
				n.Value = moved[k].now
			}
			c.Number = &n
		case c.Kind == schemas.CheckTable && c.Rows != nil:
			// A row count the reference printed is read off the rerun; one
			// it did not print stays, and the twin's proof, which judges
			// the rerun's real outputs, keeps it only if it still holds.
			if now, ok := remapValue(float64(*c.Rows), 0, printed, rerun); ok {
				rows := int(now)
				c.Rows = &rows
			}
		case c.Kind == schemas.CheckAnswer:
			if s, ok := textMoved(c, printed, rerun); !ok {
				return twin, fmt.Sprintf("check %d: the answer's %q was printed by the reference, and the rerun printed another line in its place: the text truth may have moved, and a text is not re-derived", i, s)
			}
		}
		twin.Checks[i] = c
	}
	return twin, ""
}

func allOK(rs []schemas.CheckResult) bool {
	for _, r := range rs {
		if !r.OK {
			return false
		}
	}
	return len(rs) > 0
}

func firstFailure(rs []schemas.CheckResult) string {
	for _, r := range rs {
		if !r.OK {
			return r.Kind + ": " + r.Message
		}
	}
	return "no check ran"
}
