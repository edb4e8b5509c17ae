package template

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"synth/schemas"
)

func step(thought, code string) schemas.RefStep {
	return schemas.RefStep{Thought: thought, Code: strings.TrimSpace(code)}
}

// loadStep reads table i into df and shows its shape and head.
func loadStep(c *bctx, i int) schemas.RefStep {
	return step("Load the data and look at its shape, columns and first rows.",
		"import pandas as pd\n"+c.loadCode(i, "df")+"\nprint(df.shape)\nprint(df.head())")
}

// saveCSV is the code that writes df to the task's csv output.
const saveCSV = "import os\nos.makedirs('./output', exist_ok=True)\ndf.to_csv('{OUT}.csv', index=False)"

// answerNum accepts the number within 0.1% or 0.01 (a 2-decimal rounding).
func answerNum(v float64) schemas.Check {
	return schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(v, 6), RelTol: 1e-3, AbsTol: 0.01}}
}

// answerInt accepts exactly the integer n.
func answerInt(n int) schemas.Check {
	return schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: float64(n), AbsTol: 0.001}}
}

func answerHas(words ...string) schemas.Check {
	return schemas.Check{Kind: schemas.CheckAnswer, ContainsAll: words}
}

// maxNoneOf bounds the wrong options an answer check lists.
const maxNoneOf = 100

// answerOne accepts an answer naming best and none of the other options,
// so that naming every option fails. An option the reference answers
// themselves mention as a word (or that best contains as one) is left out:
// there it cannot be told apart.
func answerOne(best string, options []string, answers ...string) schemas.Check {
	c := answerHas(best)
	for _, o := range options {
		if o == best || o == "" || mentionsWord(best, o) || len(c.NoneOf) == maxNoneOf {
			continue
		}
		if !slices.ContainsFunc(answers, func(a string) bool { return mentionsWord(a, o) }) {
			c.NoneOf = append(c.NoneOf, o)
		}
	}
	return c
}

// mentionsWord reports whether text mentions w as a whole word, ignoring
// case, as the checks library's none_of does.
func mentionsWord(text, w string) bool {
	return regexp.MustCompile(`(?i)(^|[^\pL\pN_])` + regexp.QuoteMeta(w) + `($|[^\pL\pN_])`).MatchString(text)
}

// groupKeys are the groups' keys.
func groupKeys(gs []group) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.key
	}
	return out
}

func ip(n int) *int { return &n }

// headCols returns up to n column names of a table, for columns_include.
func headCols(t *table, n int) []string {
	if len(t.header) < n {
		n = len(t.header)
	}
	return append([]string(nil), t.header[:n]...)
}

// pyCheck is a python check; the code may use the checks library helpers.
func pyCheck(format string, args ...any) schemas.Check {
	return schemas.Check{Kind: schemas.CheckPython, Code: strings.TrimSpace(fmt.Sprintf(format, args...))}
}

// fileCheck asks for a non-trivial file of a type.
func fileCheck(path, typ string, minBytes int64) schemas.Check {
	return schemas.Check{Kind: schemas.CheckFile, Path: path, Type: typ, MinBytes: minBytes}
}

// tableTypes are the input types templates read as tables.
var tableTypes = []string{"csv", "tsv", "xlsx", "xls", "json", "jsonl", "parquet"}

// pyList renders strings as a Python list literal.
func pyList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = py(x)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// plainText requires path to be a plain text file (not the input PDF or
// DOCX renamed, whose text the text checks would otherwise extract).
func plainText(path string) schemas.Check {
	return schemas.Check{Kind: schemas.CheckFile, Path: path, Type: "txt"}
}

func writeFileStep(thought, path, content string) schemas.RefStep {
	return step(thought, fmt.Sprintf("import os\nos.makedirs('./output', exist_ok=True)\ncontent = %s\nwith open('%s', 'w', encoding='utf-8') as f:\n    f.write(content)\nprint(len(content))", pyTriple(content), path))
}

// pyTriple quotes s as a Python triple-quoted raw-safe literal.
func pyTriple(s string) string {
	if !strings.Contains(s, `"""`) && !strings.Contains(s, `\`) && !strings.HasSuffix(s, `"`) {
		return `"""` + s + `"""`
	}
	return py(s)
}

func upper(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 32
		}
	}
	return string(b)
}

func pick(zh bool, en, zhs string) string {
	if zh {
		return zhs
	}
	return en
}

func joinAnd(xs []string) string {
	if len(xs) < 2 {
		return fmt.Sprint(xs)
	}
	s := ""
	for i, x := range xs[:len(xs)-1] {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s + " and " + xs[len(xs)-1]
}

// joinZh joins names the Chinese way: a、b和c.
func joinZh(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], "、") + "和" + xs[len(xs)-1]
}

// twoMeasures picks two different number measures of t at random, or ok
// false when t has fewer than two.
func twoMeasures(c *bctx, t *table) (a, b column, ok bool) {
	nums := t.measures()
	if len(nums) < 2 {
		return a, b, false
	}
	i := c.rng.IntN(len(nums))
	j := (i + 1 + c.rng.IntN(len(nums)-1)) % len(nums)
	return nums[i], nums[j], true
}

// correlatedMeasures picks two measures as twoMeasures does and gives
// Pearson's r over the rows where both are present; ok is false when t
// has fewer than two measures or r is undefined (a constant column).
func correlatedMeasures(c *bctx, t *table) (a, b column, r float64, ok bool) {
	if a, b, ok = twoMeasures(c, t); !ok {
		return a, b, 0, false
	}
	r = pearson(t.pairs(a.idx, b.idx))
	return a, b, r, !math.IsNaN(r)
}

// names are the columns' names, in order.
func names(cs []column) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// htmlParseStep reads the page with the standard library's HTMLParser: its
// links (text and href) and its title, for the HTML templates and their
// content checks.
func htmlParseStep(c *bctx) schemas.RefStep {
	return step("Parse the page with the standard library's HTMLParser.", fmt.Sprintf(`from html.parser import HTMLParser
class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.href, self.title, self.in_title = [], None, '', False
    def handle_starttag(self, tag, attrs):
        if tag == 'a':
            self.href, self.text = dict(attrs).get('href'), ''
        self.in_title = tag == 'title'
    def handle_endtag(self, tag):
        if tag == 'a' and self.href is not None:
            self.links.append((' '.join(self.text.split()), self.href))
            self.href = None
        if tag == 'title':
            self.in_title = False
    def handle_data(self, data):
        if self.href is not None:
            self.text += data
        if self.in_title:
            self.title += data
p = Links()
p.feed(open(%s, encoding='utf-8').read())
print(p.title, len(p.links))`, py(c.dpath(0))))
}
