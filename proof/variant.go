package proof

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
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
	refCase := rerun.Case
	refCase.Checks, refCase.Answer, refCase.Messages = twin.Checks, twin.Reference.Answer, finished(twin.Reference.Answer)
	empty := checks.Case{Checks: twin.Checks, Messages: finished(""), Files: CaseInputs(perturbed)}
	stale := orig.Case
	stale.Checks = twin.Checks
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
	res, err := sb.Exec(ctx, PerturbCell(inputKinds(t, inputs), variantInputsDir+"{i}/{name}", variantMark))
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
		if verdicts[k].OK && ok {
			perturbed = append(perturbed, sandbox.Input{Name: in.Name, Path: host})
			continue
		}
		perturbed = append(perturbed, in)
		skips = append(skips, in.Name+": "+verdicts[k].Skip)
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

// movedToken is a number of an answer, what it was and what the rerun
// printed in its place.
type movedToken struct {
	text     string
	was, now float64
}

// remapAnswer replaces each number of t's answer that the original steps
// printed by what the rerun printed in the same place (remapValue). A
// number the steps never printed, or one the query states that no number
// check expects (the 3 of "3 clusters"), is kept; a date's parts are its
// text, kept only where the rerun printed the same date in its place. A
// number that was printed but whose place the rerun's printout does not
// have makes why.
func remapAnswer(t *schemas.Task, printed, rerun []string) (string, []movedToken, string) {
	answer := t.Reference.Answer
	var moved []movedToken
	var out strings.Builder
	last := 0
	for _, tk := range tokens(answer) {
		d := decimals(tk.text)
		if date := dateAt(answer, tk); date != "" {
			if held, shown := textHeld(date, printed, rerun); shown && !held {
				return "", nil, fmt.Sprintf("the answer's date %s was printed by the reference, and the rerun printed another line in its place: the text truth may have moved, and a text is not re-derived", date)
			}
			continue
		}
		_, _, printedIt := place(printed, tk.value, d)
		if !printedIt || queryStates(t, tk) {
			moved = append(moved, movedToken{tk.text, tk.value, tk.value})
			continue
		}
		now, ok := remapValue(tk.value, d, printed, rerun)
		if !ok {
			return "", nil, fmt.Sprintf("the answer's %s was printed by the reference, but the rerun printed nothing in its place", tk.text)
		}
		moved = append(moved, movedToken{tk.text, tk.value, now})
		out.WriteString(answer[last:tk.start])
		out.WriteString(format(now, d))
		last = tk.end
	}
	out.WriteString(answer[last:])
	return out.String(), moved, ""
}

// dateLike is a date or a month as answers write them: 2023-05, 2023/05/17.
var dateLike = regexp.MustCompile(`\d{4}[-/]\d{1,2}(?:[-/]\d{1,2})?`)

// dateAt is the date tk is part of in s, or "".
func dateAt(s string, tk token) string {
	for _, m := range dateLike.FindAllStringIndex(s, -1) {
		if tk.start < m[1] && tk.end > m[0] {
			return s[m[0]:m[1]]
		}
	}
	return ""
}

// queryStates reports whether t's query states tk's number and no number
// check expects it: a parameter of the task, not a result.
func queryStates(t *schemas.Task, tk token) bool {
	for _, n := range expected(t) {
		if within(n, tk.value, decimals(tk.text)) {
			return false
		}
	}
	for _, q := range tokens(t.Query) {
		if q.value == tk.value {
			return true
		}
	}
	return false
}

// linePlace is where a number stands in a solution's printout: its step,
// its line counted from the step's last, its rank among the line's
// numbers, and the line with every number masked.
type linePlace struct {
	step, fromEnd, rank int
	mask                string
}

// place finds v, written with d decimals, in printed: the last line that
// states it, searching the last step first (a reference prints its
// results last).
func place(printed []string, v float64, d int) (linePlace, token, bool) {
	n := schemas.NumberMatch{Value: v}
	for s := len(printed) - 1; s >= 0; s-- {
		lines := strings.Split(strings.TrimRight(printed[s], "\n"), "\n")
		for l := len(lines) - 1; l >= 0; l-- {
			for r, tk := range tokens(lines[l]) {
				if within(&n, tk.value, max(d, decimals(tk.text))) {
					return linePlace{s, len(lines) - 1 - l, r, masked(lines[l])}, tk, true
				}
			}
		}
	}
	return linePlace{}, token{}, false
}

// remapValue is the number the rerun printed where the original steps
// printed v (written with d decimals): the same step, line and rank, on a
// line that reads the same but for its numbers. ok is false when v was
// not printed or the rerun's line differs.
func remapValue(v float64, d int, printed, rerun []string) (float64, bool) {
	at, _, ok := place(printed, v, d)
	if !ok || at.step >= len(rerun) {
		return 0, false
	}
	lines := strings.Split(strings.TrimRight(rerun[at.step], "\n"), "\n")
	l := len(lines) - 1 - at.fromEnd
	if l < 0 || masked(lines[l]) != at.mask {
		l = -1
		for k, line := range lines { // the one line of that form elsewhere
			if masked(line) == at.mask {
				if l >= 0 {
					return 0, false
				}
				l = k
			}
		}
		if l < 0 {
			return 0, false
		}
	}
	tks := tokens(lines[l])
	if at.rank >= len(tks) {
		return 0, false
	}
	return tks[at.rank].value, true
}

// textMoved checks an answer check's expected texts against the
// printouts: a text the reference printed must stand in the rerun's
// printout on the same line (contains_any: one of those printed). The
// twin keeps the original's texts, so a text the rerun no longer prints
// there would make a twin whose answer and checks agree on a stale truth.
// It returns the text that did not hold, and ok.
func textMoved(c schemas.Check, printed, rerun []string) (string, bool) {
	for _, s := range c.ContainsAll {
		if held, shown := textHeld(s, printed, rerun); shown && !held {
			return s, false
		}
	}
	anyShown, anyHeld := false, false
	for _, s := range c.ContainsAny {
		held, shown := textHeld(s, printed, rerun)
		anyShown, anyHeld = anyShown || shown, anyHeld || held
	}
	if anyShown && !anyHeld {
		return strings.Join(c.ContainsAny, " | "), false
	}
	return "", true
}

// textHeld reports whether the reference printed s (shown) and, if so,
// whether the rerun printed s on the same line: the same step, the same
// line counted from the step's last.
func textHeld(s string, printed, rerun []string) (held, shown bool) {
	if s == "" {
		return false, false
	}
	for st := len(printed) - 1; st >= 0; st-- {
		lines := strings.Split(strings.TrimRight(printed[st], "\n"), "\n")
		for l := len(lines) - 1; l >= 0; l-- {
			if !strings.Contains(lines[l], s) {
				continue
			}
			if st >= len(rerun) {
				return false, true
			}
			now := strings.Split(strings.TrimRight(rerun[st], "\n"), "\n")
			k := len(now) - (len(lines) - l)
			return k >= 0 && strings.Contains(now[k], s), true
		}
	}
	return false, false
}

// masked is line with each number replaced by #.
func masked(line string) string { return numberToken.ReplaceAllString(line, "#") }

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
