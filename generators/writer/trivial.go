package writer

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"synth/schemas"
)

// trivialCheck says why a check holds whatever the solver does (a constant
// assert, a regex that matches anything, a tolerance wider than the value,
// stop words, a check of the input alone), or "" when it can discriminate.
// hasExpr is set when a value is still to be computed, so the tolerance is
// judged after freezing.
func trivialCheck(c *schemas.Check, hasExpr bool) string {
	if strings.HasPrefix(c.Path, "data/") {
		return fmt.Sprintf("reads only the input %s: check the output or the answer instead", c.Path)
	}
	switch c.Kind {
	case schemas.CheckPython:
		return trivialPython(c.Code)
	case schemas.CheckAnswer, schemas.CheckText:
		if msg := trivialRegex(c.Regex); msg != "" {
			return msg
		}
		if msg := trivialWords(c.ContainsAny, c.ContainsAll); msg != "" {
			return msg
		}
		if c.Number != nil && !hasExpr {
			return trivialTolerance(c.Number)
		}
	}
	return ""
}

// solverNames are what a python check must look at to depend on the
// solver's work: its answer, its messages or its output files.
var solverNames = regexp.MustCompile(`\b(answer|messages)\b|output/|['"]output['"]`)

// trivialPython refuses code that never looks at the answer, the messages
// or output/: its asserts are constant or read only the inputs.
func trivialPython(code string) string {
	var lines []string
	for _, l := range strings.Split(code, "\n") {
		if i := strings.Index(l, "#"); i >= 0 && !strings.ContainsAny(l[:i], `'"`) {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	body := strings.Join(lines, "\n")
	if !solverNames.MatchString(body) {
		if strings.Contains(body, "data/") {
			return "reads only the input files: assert on answer, messages or files under output/"
		}
		return "is a constant assert: it never looks at answer, messages or output/"
	}
	return ""
}

// probes are unrelated answers; a regex matching all of them matches anything.
var probes = []string{"x", "?", "The answer is 42.", "I could not do it", "none"}

// trivialRegex refuses a pattern that matches the empty text or every probe.
// Patterns Go cannot compile (Python-only syntax) are left to the proof.
func trivialRegex(pattern string) string {
	if pattern == "" {
		return ""
	}
	re, err := regexp.Compile("(?im)" + pattern)
	if err != nil {
		return ""
	}
	if re.MatchString("") {
		return fmt.Sprintf("regex /%s/ matches the empty text", pattern)
	}
	for _, p := range probes {
		if !re.MatchString(p) {
			return ""
		}
	}
	return fmt.Sprintf("regex /%s/ matches any text", pattern)
}

// stopWords appear in almost any answer; containing one proves nothing.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the is are was were be been of to in on at for and or not no yes it its this that
		with as by from file data output result results answer done ok success saved value values number total
		的 是 了 在 和 有 我 结果 文件 完成 数据`) {
		stopWords[w] = true
	}
}

// trivialWords refuses contains_any with a stop word or a single character
// among its choices (any answer has one), and contains_all of stop words
// only.
func trivialWords(anyOf, allOf []string) string {
	for _, w := range anyOf {
		if weakWord(w) {
			return fmt.Sprintf("contains_any %q: almost any text contains it; list only words a right answer has and a wrong one lacks", w)
		}
	}
	if len(allOf) > 0 {
		for _, w := range allOf {
			if !weakWord(w) {
				return ""
			}
		}
		return fmt.Sprintf("contains_all %q: only words almost any text contains", allOf)
	}
	return ""
}

func weakWord(w string) bool {
	w = strings.ToLower(strings.TrimSpace(w))
	if w == "" || stopWords[w] {
		return true
	}
	r, _ := utf8.DecodeRuneInString(w)
	return utf8.RuneCountInString(w) == 1 && !('0' <= r && r <= '9') && r < 0x2E80
}

// trivialTolerance refuses a number check whose tolerance is as wide as the
// value (any number of the right sign, or zero, passes) or wider than a
// tenth of it.
func trivialTolerance(n *schemas.NumberMatch) string {
	v := math.Abs(n.Value)
	switch {
	case n.AbsTol > 0 && n.AbsTol >= v && (v > 0 || n.AbsTol >= 1):
		return fmt.Sprintf("number %v with abs_tol %v: the tolerance is wider than the value", n.Value, n.AbsTol)
	case n.RelTol > 0.1:
		return fmt.Sprintf("number %v with rel_tol %v: wider than 10%% of the value; compute the value with an expr and use a tight tolerance", n.Value, n.RelTol)
	}
	return ""
}

// contentFields are fields that test what a file holds, beyond its
// existence, size and type.
var existenceFields = map[string]bool{"kind": true, "path": true, "exists": true, "min_bytes": true, "type": true}

// checksContent reports whether c tests the content of the output file o:
// a check on o with a field beyond existence, size and type, or a python
// check that names o.
func checksContent(c *schemas.Check, o string) bool {
	if c.Kind == schemas.CheckPython {
		return strings.Contains(c.Code, o)
	}
	if strings.TrimPrefix(c.Path, "./") != o || c.Kind == schemas.CheckFile {
		return false
	}
	raw, _ := json.Marshal(c)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	for k, v := range m {
		if !existenceFields[k] && string(v) != "false" {
			return true
		}
	}
	return false
}
