package proof

import (
	"fmt"
	"regexp"
	"strings"

	"synth/schemas"
)

// How a twin's truth is read off the reference's printouts: a number of
// the answer, or a check's literal, is found where the reference printed
// it on the original inputs and taken from the same place of what it
// printed on the perturbed ones; a text must stand where it stood.

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
// states a number that rounds to it (an answer may round what the code
// printed: 1.43 for 1.4286), searching the last step first (a reference
// prints its results last).
func place(printed []string, v float64, d int) (linePlace, token, bool) {
	n := schemas.NumberMatch{Value: v}
	for s := len(printed) - 1; s >= 0; s-- {
		lines := strings.Split(strings.TrimRight(printed[s], "\n"), "\n")
		for l := len(lines) - 1; l >= 0; l-- {
			for r, tk := range tokens(lines[l]) {
				if within(&n, tk.value, d) {
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
