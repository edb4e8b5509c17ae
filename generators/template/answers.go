package template

import (
	"fmt"
	"math"
	"strings"

	"synth/schemas"
)

// headingsExactly is a python check that the answer lists the level-2
// headings of the Markdown input, as the reference's regex finds them in
// the verification sandbox, in their order and nothing else: each heading
// must be named after the one before it, and once they are all found, the
// rest of the answer may name a heading of the document (of any level)
// at most once more. Headings are compared without case, brackets,
// backticks, emphasis marks and extra spaces, so that a Markdown parser's
// text ("0.11.0 - 2024-03-07" for "[0.11.0] - 2024-03-07") passes, and
// the level-3 headings added, or two headings swapped, fail.
func headingsExactly(c *bctx) schemas.Check {
	return pyCheck(`
import re
def norm(s):
    return ' '.join(re.sub(r'[\[\]`+"`"+`*_#]', ' ', s.lower()).split())
text = read_text(%[1]s)
want = [norm(h) for h in re.findall(r'(?m)^##\s+(.+?)\s*$', text)]
every = set(norm(h) for h in re.findall(r'(?m)^#{1,6}[ \t]+(.+?)\s*$', text)) | set(want)
said = norm(answer)
at = 0
for h in want:
    m = re.compile(r'(?<!\w)' + re.escape(h) + r'(?!\w)').search(said, at)
    assert m, 'the answer does not name the heading %%r after the ones before it: list the level-2 headings in their order' %% h
    said = said[:m.start()] + ' ' * len(h) + said[m.end():]
    at = m.end()
extra = [h for h in every if len(h) >= 3 for _ in re.finditer(r'(?<!\w)' + re.escape(h) + r'(?!\w)', said)]
assert len(extra) <= %[2]d, 'the answer names %%d more headings than the level-2 ones (%%s): list exactly the level-2 headings' %% (len(extra), ', '.join(sorted(set(extra))[:6]))
`, py(c.dpath(0)), headingsAllowance)
}

// headingsAllowance is how many other headings an answer listing the
// level-2 ones may name besides (a document's title, say).
const headingsAllowance = 1

// mutateVagueAnswer is the reference's code with an answer that names
// nothing.
func mutateVagueAnswer(t *schemas.Task) *schemas.Reference {
	if t.Reference == nil {
		return nil
	}
	return &schemas.Reference{Steps: t.Reference.Steps, Answer: "I could not find a clear answer; maybe 7."}
}

// statToItsDigits is a python check that the answer states the statistic
// (pandas' expr of column col, computed on the real input in the
// verification sandbox) to the digits it writes (stated_to_its_digits):
// 0.825 for a maximum of 0.8281 fails where a tolerance of 0.01 passed
// it; 0.83, 0.828 and 0.8281 pass.
func statToItsDigits(c *bctx, col, expr, label string) schemas.Check {
	return valueToItsDigits(c, fmt.Sprintf("df[%s].%s", py(col), expr), label)
}

// valueToItsDigits is a python check that the answer states the value of
// the pandas expression expr over the input (df), computed in the
// verification sandbox, to the digits it writes: Spearman's 0.092 for a
// Pearson r of 0.0912 fails, 0.091 and 0.09 pass.
func valueToItsDigits(c *bctx, expr, label string) schemas.Check {
	return schemas.Check{Kind: schemas.CheckPython, Code: "import pandas as pd\n" + c.loadCode(0, "df") + fmt.Sprintf(`
v = float(%s)
ok, why = stated_to_its_digits(answer, v, %s)
assert ok, why`, expr, py(label))}
}

// enhancedAsAsked is a python check that {out}.png changes the input's
// brightness or contrast (kind) as PIL's ImageEnhance with factor does
// (enhanced_as_asked): between half and twice PIL's change, measured alike
// on the input, PIL's result and the output in the verification sandbox,
// and looking like PIL's result.
func enhancedAsAsked(c *bctx, kind string, factor float64) schemas.Check {
	return pyCheck(`ok, why = enhanced_as_asked('{out}.png', %s, %s, %v)
assert ok, why`, py("data/"+c.name(0)), py(kind), factor)
}

// pdfTextCovered is a python check that the text file at path holds the
// text of input 0, a PDF, as a standard reader gives it, read in the
// verification sandbox (pdf_texts: pypdf, the reference's, and PyMuPDF):
// covers_text's letter trigrams, not a few rare words one reader may
// spell otherwise, so half the text fails and pdfplumber's text passes.
func pdfTextCovered(c *bctx, path string) schemas.Check {
	return pyCheck(`ok, why = covers_text(read_text(%[1]s), pdf_texts(%[2]s))
assert ok, '%[1]s ' + why`, py(path), py(c.dpath(0)))
}

// sentencesExactly is a python check that {out}.txt holds, one per line,
// the sentences of input 0 that contain word (any case, as a whole word),
// split as the reference splits them, computed in the verification
// sandbox: as many lines, each with the word, and their words (as a
// multiset) at least 95% those sentences' and covering 95% of them. A
// sentence holding "governments" for "government", two sentences run
// together, or another sentence in place of one fail.
func sentencesExactly(c *bctx, word string) schemas.Check {
	return pyCheck(`
import re
from collections import Counter
flat = ' '.join(read_text(%[1]s).split())
sents = [s.strip() for s in re.split(r'(?<=[.!?])\s+', flat) if s.strip()]
has = re.compile(r'(?i)\b%[2]s\b')
want = [s for s in sents if has.search(s)]
lines = [' '.join(l.split()) for l in read_text('{out}.txt').split('\n') if l.strip()]
assert len(lines) == len(want), '{out}.txt has %%d sentences, expected %%d' %% (len(lines), len(want))
bad = [l for l in lines if not has.search(l)]
assert not bad, '{out}.txt has lines without %[2]s: %%r' %% bad[:2]
w, g = Counter(re.findall(r'\w+', ' '.join(want).lower())), Counter(re.findall(r'\w+', ' '.join(lines).lower()))
both = sum((w & g).values())
assert both >= 0.95 * sum(w.values()) and both >= 0.95 * sum(g.values()), '{out}.txt holds %%.0f%%%% of the words of the sentences with %[2]s, and %%.0f%%%% of its words are theirs: write those sentences whole' %% (100.0 * both / max(1, sum(w.values())), 100.0 * both / max(1, sum(g.values())))
`, py(c.dpath(0)), word)
}

// withoutPrints is Python code without its print lines (a check's code
// computes, it does not report).
func withoutPrints(code string) string {
	var keep []string
	for _, l := range strings.Split(code, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "print(") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// monthTableCheck compares the monthly table at {out}.csv, cell by cell,
// with the one the reference's transform makes of the real input in the
// verification sandbox (same_table, rows in any order), its month column
// read to YYYY-MM: a month written as a date (2023-10-31, as a resample
// writes it) names its month.
func monthTableCheck(c *bctx, transform string) schemas.Check {
	return schemas.Check{Kind: schemas.CheckPython, Code: "import pandas as pd\n" + c.loadCode(0, "df") + "\n" + withoutPrints(strings.TrimSpace(transform)) + `
got = read_table('{out}.csv')
m = find_column(got, 'month')
assert m is not None, '{out}.csv has no month column'
got[m] = got[m].astype(str).str.strip().str.slice(0, 7)
same_table(got, df)`}
}

// joinTableCheck compares the joined table at {out}.csv, cell by cell,
// with pandas' inner join of inputs 0 and 1 on key in the verification
// sandbox, rows in any order; the columns pandas suffixes (_x, _y, where
// both tables share a name besides the key) are not asked for.
func joinTableCheck(c *bctx, key string) schemas.Check {
	return sameTableCheck(c, "{out}.csv", c.loadCode(1, "right")+fmt.Sprintf(`
cols = set(map(str, df.columns)) | set(map(str, right.columns))
df = df.merge(right, on=%s, how='inner')
df = df[[x for x in df.columns if str(x) in cols]]`, py(key)), false)
}

// answerNumNamed is answerNum with a label: the number the label's words
// name is the value the answer states (NumberMatch.Label), so a count
// stated after it (共 37 个缺失值) is not read as the answer.
func answerNumNamed(v float64, label string) schemas.Check {
	c := answerNum(v)
	c.Number.Label = label
	return c
}

// statLabels name each statistic of table.stat in English and Chinese.
var statLabels = map[string]string{
	"mean":   `average|mean|平均值|均值|平均数`,
	"median": `median|中位数`,
	"std":    `standard deviation|std|stdev|标准差`,
	"max":    `maximum|max|最大值|最大`,
	"min":    `minimum|min|最小值|最小`,
}

// enhanceMoves estimates, on a sample of input i's pixels (transparency
// over white, as a viewer shows them), by how many grey levels PIL's
// ImageEnhance would move its brightness (kind "brightness": the mean) or
// contrast ("contrast": the standard deviation) with factor f. It only
// decides whether to ask: a picture already at black and white moves by
// under a level or two, and there a copy of the input passes any check of
// the change. The check itself measures PIL's result in the sandbox.
func (c *bctx) enhanceMoves(i int, kind string, f float64) float64 {
	img := c.decodeImage(i)
	if img == nil {
		return math.Inf(1) // the sandbox decides
	}
	b := img.Bounds()
	step := max(1, min(b.Dx(), b.Dy())/128)
	var vs []float64
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, a := img.At(x, y).RGBA() // premultiplied by a
			white := float64(0xffff - a)
			vs = append(vs, (0.299*(float64(r)+white)+0.587*(float64(g)+white)+0.114*(float64(bl)+white))/257)
		}
	}
	if len(vs) == 0 {
		return 0
	}
	m := mean(vs)
	out := make([]float64, len(vs))
	for j, v := range vs {
		if kind == "brightness" {
			out[j] = math.Min(255, v*f)
		} else {
			out[j] = math.Max(0, math.Min(255, m+(v-m)*f))
		}
	}
	if kind == "brightness" {
		return math.Abs(mean(out) - m)
	}
	return math.Abs(std(out) - std(vs))
}

// minEnhanceMove is the fewest grey levels an asked brightness or contrast
// change must move the picture by for the task to be written.
const minEnhanceMove = 2.0
