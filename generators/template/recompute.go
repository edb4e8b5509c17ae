package template

import (
	"fmt"
	"strings"

	"synth/schemas"
)

// A recomputed value is a number an answer states, computed again from
// the real inputs in the verification sandbox: expr is a Python
// expression over what setup defined, rel and abs its tolerance (as the
// answer check's). An answer check's recorded value is the truth of the
// inputs the task was written on; a stale answer, computed on other data,
// can match it only by chance where the inputs stay. Held to the value
// recomputed where the checks run, it fails wherever the truth moved:
// judged on other inputs (an eval on changed data, the battery's stale
// case), the recorded value is not asked.
type recomp struct {
	expr     string
	rel, abs float64
	// label, when set, names the value in the answer as the answer
	// check's label does (median|中位数).
	label string
}

// recomputedNum is answerNum's tolerance: 0.1% or 0.01.
func recomputedNum(expr string) recomp { return recomp{expr, 1e-3, 0.01, ""} }

// recomputedInt is answerInt's: exactly the integer.
func recomputedInt(expr string) recomp { return recomp{"int(" + expr + ")", 0, 0.001, ""} }

// recomputed is a python check that runs setup (the reference's own read
// of the inputs, under data/) and asserts that the answer states each
// value (checks library answer_states). Its message ends "(computed from
// the inputs)".
func recomputed(setup string, vals ...recomp) schemas.Check {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(setup))
	for _, v := range vals {
		fmt.Fprintf(&b, "\nanswer_states(answer, %s, rel_tol=%g, abs_tol=%g, label=%s)", v.expr, v.rel, v.abs, py(v.label))
	}
	return schemas.Check{Kind: schemas.CheckPython, Code: b.String()}
}

// inOrderRecomputed is answerInOrder held to values recomputed from the
// real inputs (exprs, Python integer expressions over what setup defined):
// each value a label names must be the recomputed one, else they come in
// order. Without it a stale answer passes where the inputs' new values
// happen to be among its old ones ("12 rows and 8 columns" when 8 rows
// remain of 12).
func inOrderRecomputed(setup string, exprs []string, labels [][2]string) schemas.Check {
	ls := make([]string, len(labels))
	for i, l := range labels {
		ls[i] = fmt.Sprintf("(%s, %s)", py(l[0]), py(l[1]))
	}
	return pyCheck(`%s
ok, why = in_order(answer, [%s], [%s])
assert ok, why + ' (computed from the inputs)'`, strings.TrimSpace(setup), strings.Join(exprs, ", "), strings.Join(ls, ", "))
}

// tableSetup is the reference's read of table i into df, for recomputed.
func tableSetup(c *bctx, i int) string {
	return "import pandas as pd\n" + c.loadCode(i, "df")
}

// textSetup is the reference's read of text file i into text (its
// encoding as readTextStep gives it), for recomputed.
func textSetup(c *bctx, i int) string {
	return fmt.Sprintf("text = open(%s, encoding=%s).read()", py(c.dpath(i)), py(c.textEncoding(i)))
}

// headingsRecomputed is md.headings' recomputed check: the headings the
// reference's regex finds in the real input; a heading recorded when the
// task was written (hs) that the input no longer has must not be named.
// On the inputs the task was written on it holds whenever the answer
// check does.
func headingsRecomputed(c *bctx, hs []string) schemas.Check {
	return pyCheck(`%s
now = set(re.findall(r'(?m)^##\s+(.+?)\s*$', text))
gone = [h for h in %s if h not in now and h.lower() in answer.lower()]
assert not gone, 'the answer names %%s, not a heading of the input (computed from the inputs)' %% ', '.join(gone[:4])`, textSetup(c, 0), pyList(hs))
}

// yearsRecomputed is text.years' recomputed check: every year the answer
// names (1500 and 2099, the question's bounds, aside) is one the
// reference's regex finds in the real input.
func yearsRecomputed(c *bctx) schemas.Check {
	return pyCheck(`%s
%s
named = set(int(x) for x in candidates(answer) if x == int(x) and 1500 <= x <= 2099)
extra = sorted(named - set(int(y) for y in years) - {1500, 2099})
assert not extra, 'the answer names %%s, not a year of the input (computed from the inputs)' %% ', '.join(map(str, extra[:6]))`,
		textSetup(c, 0), strings.TrimSuffix(yearsPy, "\nprint(years)"))
}

// yearsPy is yearsIn in Python, over text.
const yearsPy = `import re
units = r'(?:(?:m|km|cm|mm|metres|meters|miles|mi|yards|yd|feet|ft|kg|g|lb|lbs|s|sec|seconds|min|minutes|h|hours|ml|l|kcal|cal|w|kw|mb|gb|px)\b|%)'
# re.A: a year is a run of ASCII digits between non-ASCII-word characters (2019年 holds 2019)
years = sorted(set(m.group(1) for m in re.finditer(r'(?<![.,\d])\b(1[5-9]\d\d|20\d\d)\b(?!\.\d)', text, re.A)
                   if not re.match(r'[ \t]*' + units, text[m.end():m.end() + 12].lower(), re.A)))
print(years)`
