package proof

import (
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// numberToken is a number as an answer or a printout states it: a
// decimal, or a fraction of two integers (6/5).
var numberToken = regexp.MustCompile(`-?\d+(?:\.\d+)?(?:/\d+)?`)

// token is a number's place in a text and its value.
type token struct {
	start, end int
	text       string
	value      float64
}

func tokens(s string) []token {
	var out []token
	for _, m := range numberToken.FindAllStringIndex(s, -1) {
		text := s[m[0]:m[1]]
		num, den, frac := strings.Cut(text, "/")
		v, err := strconv.ParseFloat(num, 64)
		if frac {
			d, derr := strconv.ParseFloat(den, 64)
			if derr != nil || d == 0 {
				continue
			}
			v /= d
		}
		if err == nil {
			out = append(out, token{m[0], m[1], text, v})
		}
	}
	return out
}

// decimals is how many digits follow the point in a number's text.
func decimals(text string) int {
	if strings.Contains(text, "/") {
		return 6
	}
	if _, frac, ok := strings.Cut(text, "."); ok {
		return len(frac)
	}
	return 0
}

// format writes v with d decimals.
func format(v float64, d int) string { return strconv.FormatFloat(v, 'f', d, 64) }

// expected are the answer checks' expected numbers.
func expected(t *schemas.Task) []*schemas.NumberMatch {
	var out []*schemas.NumberMatch
	for _, c := range t.Checks {
		if c.Kind == schemas.CheckAnswer && c.Number != nil {
			out = append(out, c.Number)
		}
	}
	return out
}

// within reports whether v matches n's expected value within its
// tolerance (the looser of relative and absolute, at least the rounding
// of a number written with d decimals).
func within(n *schemas.NumberMatch, v float64, d int) bool {
	tol := max(n.AbsTol, n.RelTol*math.Abs(n.Value), 0.5*math.Pow(10, -float64(d))+1e-9)
	return math.Abs(v-n.Value) <= tol
}

// answerVariants are the neighbours of the reference's answer: each number
// that states an expected value zeroed, then moved off (by one for an
// integer, by a tenth for a fraction), and, when two differ, the two
// swapped. ref is the reference's case; each variant keeps its files.
func answerVariants(t *schemas.Task, ref checks.Case) []Wrong {
	ns := expected(t)
	if len(ns) == 0 {
		return nil
	}
	// stated are the answer's tokens that state an expected value, every
	// one of them (an answer may give a value twice: 6/5 ≈ 1.2); first
	// holds each check's first, for swapping.
	var stated, first []token
	for _, tk := range tokens(ref.Answer) {
		if slices.ContainsFunc(ns, func(n *schemas.NumberMatch) bool { return within(n, tk.value, decimals(tk.text)) }) {
			stated = append(stated, tk)
		}
	}
	for _, n := range ns {
		for _, tk := range stated {
			if within(n, tk.value, decimals(tk.text)) && !slices.ContainsFunc(first, func(s token) bool { return s.start == tk.start }) {
				first = append(first, tk)
				break
			}
		}
	}
	if len(stated) == 0 {
		return nil
	}
	variant := func(name string, repl func(i int, tk token) string) Wrong {
		c := ref
		c.Observations = nil
		c.Answer = replaceTokens(ref.Answer, stated, repl)
		c.Messages = finished(c.Answer)
		return Wrong{name, c}
	}
	out := []Wrong{
		variant("answer_zeros", func(_ int, tk token) string {
			if tk.value == 0 {
				return "1"
			}
			return "0"
		}),
		variant("answer_off", func(_ int, tk token) string {
			if d := decimals(tk.text); d > 0 {
				return format(tk.value*1.1+0.1, min(d, 4))
			}
			return format(tk.value+1, 0)
		}),
	}
	if len(first) >= 2 && first[0].value != first[1].value && labelled(ref.Answer, first[0], first[1]) {
		c := ref
		c.Observations = nil
		c.Answer = replaceTokens(ref.Answer, first[:2], func(i int, _ token) string { return first[1-i].text })
		c.Messages = finished(c.Answer)
		out = append(out, Wrong{"answer_swapped", c})
	}
	return out
}

// labelled reports whether two numbers of an answer stand for different
// things, so that swapping them is wrong: the two words before them
// differ, and so do the two after ("240 pixels wide and 300 pixels
// high"). Two values under one label ("x = -6 and x = 1", the roots) are
// a set, and either order is right.
func labelled(answer string, a, b token) bool {
	before := func(t token) string {
		ws := strings.Fields(answer[:t.start])
		return strings.Join(ws[max(0, len(ws)-2):], " ")
	}
	after := func(t token) string {
		ws := strings.Fields(answer[t.end:])
		return strings.Join(ws[:min(2, len(ws))], " ")
	}
	return before(a) != before(b) && after(a) != after(b)
}

// replaceTokens rewrites s with each of tks (in any order) replaced by
// repl(its index in tks, it).
func replaceTokens(s string, tks []token, repl func(i int, tk token) string) string {
	order := make([]int, len(tks))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return tks[b].start - tks[a].start })
	for _, i := range order {
		tk := tks[i]
		s = s[:tk.start] + repl(i, tk) + s[tk.end:]
	}
	return s
}

// staleAnswer is the reference's answer with each number that the
// reference printed replaced by what the rerun printed in the same place
// (the k-th number of the printout), where that moved by more than 1%.
func staleAnswer(answer string, printed, rerun string) string {
	was, now := tokens(printed), tokens(rerun)
	var moved []token
	var to []string
	for _, tk := range tokens(answer) {
		d := decimals(tk.text)
		k := slices.IndexFunc(was, func(w token) bool { return math.Abs(w.value-tk.value) <= 0.5*math.Pow(10, -float64(d))+1e-9 })
		if k < 0 || k >= len(now) {
			continue
		}
		v := now[k].value
		if math.Abs(v-tk.value) <= 0.01*max(math.Abs(tk.value), 1) {
			continue
		}
		moved, to = append(moved, tk), append(to, format(v, d))
	}
	return replaceTokens(answer, moved, func(i int, _ token) string { return to[i] })
}

// judgedContent are the output extensions whose bytes the checks judge by
// content; an image, a sound or a pickle may differ byte for byte and
// still be the same answer.
var judgedContent = map[string]bool{".csv": true, ".tsv": true, ".xlsx": true, ".parquet": true, ".json": true, ".jsonl": true,
	".txt": true, ".md": true, ".html": true, ".htm": true, ".xml": true, ".yaml": true, ".yml": true}

// staleCase is the stale wrong solution: the reference's answer with the
// numbers the rerun on perturbed inputs printed, and the rerun's outputs,
// judged on the original inputs. moved is false when neither the answer
// (where an answer check reads a number) nor an output a check judges by
// content differs from the reference's: the truth did not move.
func staleCase(t *schemas.Task, p Played, rerunPrinted []string, inputs []sandbox.Input, stale map[string]string) (checks.Case, bool) {
	answer := p.Case.Answer
	if len(expected(t)) > 0 || answerJudged(t) {
		answer = staleAnswer(answer, p.Output(), strings.Join(rerunPrinted, "\n"))
	}
	moved := answer != p.Case.Answer
	c := checks.Case{Checks: t.Checks, Answer: answer, Messages: finished(answer), Files: CaseInputs(inputs)}
	own := map[string]string{}
	for _, f := range p.Case.Files[len(inputs):] {
		if checks.IsFigureRecord(f.Name) {
			continue // a chart's record moves with the chart, which is not judged byte for byte
		}
		own[f.Name] = path.Base(f.Path) // the store names a file by its digest
	}
	for _, name := range sortedKeys(stale) {
		host, sum, _ := strings.Cut(stale[name], "\x00")
		c.Files = append(c.Files, sandbox.Input{Name: name, Path: host})
		if judgedContent[strings.ToLower(path.Ext(name))] && !checks.IsFigureRecord(name) && own[name] != sum {
			moved = true
		}
	}
	for name := range own {
		if _, ok := stale[name]; !ok && judgedContent[strings.ToLower(path.Ext(name))] {
			moved = true
		}
	}
	return c, moved
}

// answerJudged reports whether a python check reads the answer.
func answerJudged(t *schemas.Task) bool {
	for _, c := range t.Checks {
		if c.Kind == schemas.CheckPython && strings.Contains(c.Code, "answer") {
			return true
		}
	}
	return false
}
