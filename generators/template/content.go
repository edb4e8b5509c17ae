package template

import (
	"fmt"
	"strings"

	"synth/schemas"
)

// sameTableCheck is a python check that compares the table a rollout
// wrote at out with the table the reference's own pandas code makes: the
// check reads input 0 as the reference does (loadCode, into df), runs
// transform on it (which leaves the expected table in df; columns pandas
// names Unnamed are left out) and asserts same_table: as many rows, every column of the expected table, every
// cell within tolerance, rows in any order unless ordered. The expected
// values are computed in the verification sandbox from the real input,
// never by the Go reader.
func sameTableCheck(c *bctx, out, transform string, ordered bool) schemas.Check {
	code := "import pandas as pd\n" + c.loadCode(0, "df") + "\n" + strings.TrimSpace(transform) +
		"\ndf = df[[x for x in df.columns if not str(x).startswith('Unnamed:')]]" +
		fmt.Sprintf("\nsame_table(%s, df, ordered=%s)", py(out), pyBool(ordered))
	return schemas.Check{Kind: schemas.CheckPython, Code: code}
}

// describeCheck compares every cell of a describe()-style table at
// {out}.csv with pandas' describe() of cols on the real input: each
// statistic's row, found by its label in the first column (25% or q1,
// median or 50%, ...), holds each column's value within 1e-4 of it, or to
// the decimals written when it was rounded on writing (close_as_written),
// so that the population std, swapped min and max, or one column right
// and the others wrong all fail.
func describeCheck(c *bctx, cols []string) schemas.Check {
	return schemas.Check{Kind: schemas.CheckPython, Code: "import pandas as pd\n" + c.loadCode(0, "df") + fmt.Sprintf(`
want = df[%s].describe()
got = read_table('{out}.csv')
first = got.columns[0]
alias = {'count': ['count', 'n'], 'mean': ['mean', 'average', 'avg'], 'std': ['std', 'stdev', 'std dev', 'sd', 'standard deviation'],
         'min': ['min', 'minimum'], '25%%': ['25%%', 'q1', '25', '0.25', '25th percentile', 'p25'],
         '50%%': ['50%%', 'median', 'q2', '50', '0.5', '50th percentile', 'p50'], '75%%': ['75%%', 'q3', '75', '0.75', '75th percentile', 'p75'],
         'max': ['max', 'maximum']}
labels = [str(x).strip().lower() for x in got[first]]
for stat in want.index:
    names = alias.get(stat, [stat])
    rows = [i for i, l in enumerate(labels) if l in names]
    assert rows, '{out}.csv has no %%s row (first column: %%s)' %% (stat, labels[:8])
    for col in want.columns:
        g = find_column(got, str(col))
        assert g is not None, '{out}.csv has no column %%s' %% col
        w = float(want.loc[stat, col])
        try:
            v = float(got[g].iloc[rows[0]])
        except (TypeError, ValueError):
            v = float('nan')
        if math.isnan(w):
            assert math.isnan(v), 'the %%s of %%s is %%s, expected empty' %% (stat, col, v)
            continue
        assert close_as_written(written_cell('{out}.csv', got, rows[0], g), v, w), 'the %%s of %%s is %%s, expected %%.6g' %% (stat, col, v, w)
`, pyList(cols))}
}

// dimensionLabels name a width and a height in an answer: before the
// number ("width: 800", 宽 800) or after it ("800 pixels wide").
var dimensionLabels = [][2]string{
	{`width|w|宽`, `(?:px|pixels?|像素)?\s*(?:wide|across|in width|宽)`},
	{`height|h|高`, `(?:px|pixels?|像素)?\s*(?:high|tall|in height|高)`},
}

// shapeLabels name a table's rows and columns in an answer: before the
// number ("rows: 10", 行数 10) or after it ("10 rows", 10 列); unlabelled,
// as in (10, 4), rows come first, as pandas' shape has them.
var shapeLabels = [][2]string{
	{`rows?|records|行数`, `(?:data\s+)?(?:rows?|records|entries|observations|行)`},
	{`columns?|cols?|fields|列数`, `(?:columns?|cols?|fields|variables|列)`},
}

// answerInOrder is a python check that the answer states values in their
// order (in_order): a number a label names must be that label's value, and
// unlabelled values must come in order, so that a width and a height
// swapped, or given both ways, fail.
func answerInOrder(values []int, labels [][2]string) schemas.Check {
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = fmt.Sprint(v)
	}
	ls := make([]string, len(labels))
	for i, l := range labels {
		ls[i] = fmt.Sprintf("(%s, %s)", py(l[0]), py(l[1]))
	}
	return pyCheck(`
ok, why = in_order(answer, [%s], [%s])
assert ok, why
`, strings.Join(vs, ", "), strings.Join(ls, ", "))
}

// clusterCheck judges a k-means labelling of {out}.csv by its quality on
// the real input, computed in the verification sandbox: the output keeps
// the input's complete rows in order (their features as they are), has k
// labels, and its labels explain at least 90% of the variance (of the
// standardized features) that scikit-learn's KMeans explains. A random
// labelling explains almost none; another good k-means run nearly all.
func clusterCheck(c *bctx, features []string, k int) schemas.Check {
	return schemas.Check{Kind: schemas.CheckPython, Code: "import pandas as pd\nimport numpy as np\n" + c.loadCode(0, "df") + fmt.Sprintf(`
features = %s
df = df.dropna(subset=features).copy()
same_table('{out}.csv', df[[x for x in df.columns if not str(x).startswith('Unnamed:')]], ordered=True)
got = read_table('{out}.csv')
col = find_column(got, 'cluster')
assert col is not None, '{out}.csv has no cluster column'
labels = pd.factorize(got[col].astype(str))[0]
assert len(set(labels)) == %d, '{out}.csv has %%d distinct clusters, expected %d' %% len(set(labels))
X = df[features].to_numpy(dtype=float)
sd = X.std(axis=0)
X = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1)
def sse(lab):
    return float(sum(((X[lab == j] - X[lab == j].mean(axis=0)) ** 2).sum() for j in set(lab.tolist())))
from sklearn.cluster import KMeans
best = KMeans(n_clusters=%d, n_init=10, random_state=42).fit_predict(X)
total = float(((X - X.mean(axis=0)) ** 2).sum())
share = (total - sse(labels)) / max(total - sse(best), 1e-12)
assert share >= 0.9, 'the clusters of {out}.csv explain %%.0f%%%% of the variance k-means explains on the standardized features, expected at least 90%%%%' %% (100 * share)
`, pyList(features), k, k, k)}
}

// htmlTableCheck compares the first HTML table of {out}.html, cell text by
// cell text, with the input as the reference reads it, in the
// verification sandbox: its first row is the header (heads among its
// cells, named as pandas names them: a blank one Unnamed: i, a repeated
// one name.1), each further row a record, every named column's values equal
// (numbers within tolerance) in any row order. Empty cells, zeros or
// another column's values fail. A line break inside a cell is whitespace,
// as a browser shows it, whether written raw or as the \n pandas' to_html
// writes.
func htmlTableCheck(c *bctx, heads []string) schemas.Check {
	return schemas.Check{Kind: schemas.CheckPython, Code: "import re\nimport pandas as pd\n" + c.loadCode(0, "df") + fmt.Sprintf(`
df = df[[x for x in df.columns if not str(x).startswith('Unnamed:')]]
els = html_elements('{out}.html')
assert any(e['tag'] == 'table' for e in els), '{out}.html has no <table>'
rows, cur, tables = [], None, 0
for e in els:
    if e['tag'] == 'table':
        tables += 1
    elif tables == 1 and e['tag'] == 'tr':
        cur = []
        rows.append(cur)
    elif tables == 1 and e['tag'] in ('td', 'th') and cur is not None:
        cur.append(' '.join(re.sub(r'\\[ntr]', ' ', e['text']).split()))
assert rows, '{out}.html has a <table> without rows'
head = pandas_names(rows[0])
missing = [h for h in %s if h not in head]
assert not missing, 'the table header lacks %%s (has %%s)' %% (missing, head[:8])
empty = ('', 'nan', 'NaN', 'None', 'NaT', '<NA>')
body = [[None if x in empty else x for x in (r + [''] * len(head))[:len(head)]] for r in rows[1:]]
got = pd.DataFrame(body, columns=range(len(head)))
got.columns = head
same_table(got, df)
`, pyList(heads))}
}

// topWordsCheck asks for the first n words of a ranking and counts every
// other word of the text (of at least minLen letters) the answer names,
// read from the input in the verification sandbox: more than one (words
// the query or the reference's answer say aside) is a list of guesses, so
// the whole text pasted fails.
func topWordsCheck(c *bctx, ranked []wordCount, n, minLen int, said ...string) schemas.Check {
	var top []string
	for _, w := range ranked[:n] {
		top = append(top, w.word)
	}
	seen := map[string]bool{}
	var aside []string
	for _, s := range said {
		for _, w := range words(s) {
			if len(w) >= minLen && !seen[w] {
				seen[w] = true
				aside = append(aside, w)
			}
		}
	}
	return pyCheck(`
top = %[1]s
text = read_text(%[2]s).lower()
vocab = set(w for w in re.findall(r'[a-z]+', text) if len(w) >= %[3]d)
named = set(w for w in re.findall(r'[a-z]+', answer.lower()) if len(w) >= %[3]d)
extra = sorted((named & vocab) - set(top) - set(%[4]s))
assert len(extra) <= 1, 'the answer names %%d other words of the text (%%s): name the top %[5]d, not a list of guesses' %% (len(extra), ', '.join(extra[:6]))
`, pyList(top), py(c.dpath(0)), minLen, pyList(aside), n)
}

// wordsInOrder is a python check that the answer names words in the
// order of their counts (a ranking): each word's first mention, as a whole
// word in any case, comes before that of every word with a lower count.
// Words of the same count have no order between them.
func wordsInOrder(words []string, counts []int) schemas.Check {
	cs := make([]string, len(counts))
	for i, n := range counts {
		cs[i] = fmt.Sprint(n)
	}
	return pyCheck(`
words, counts = %s, [%s]
at = []
for w in words:
    m = re.search(r'(?<!\w)' + re.escape(w) + r'(?!\w)', answer, re.IGNORECASE)
    assert m, 'the answer does not name %%s' %% w
    at.append(m.start())
late = [(words[i], words[j]) for i in range(len(words)) for j in range(len(words)) if counts[i] > counts[j] and at[i] > at[j]]
assert not late, 'the answer names %%s out of order: %%s (more frequent) comes after %%s; expected %%s' %% (', '.join(sorted(words, key=lambda w: at[words.index(w)])), late[0][0], late[0][1], ', '.join(words))
`, pyList(words), strings.Join(cs, ", "))
}

// yearsExactly is a python check that the years the answer states, the
// numbers from 1500 to 2099 it names as numbers, are ys and no others
// (1500 and 2099, the question's bounds, may be repeated): naming every
// year, or years the text does not hold, fails.
func yearsExactly(ys []string) schemas.Check {
	return pyCheck(`
want = set(int(y) for y in %s)
named = set(int(x) for x in candidates(answer) if x == int(x) and 1500 <= x <= 2099)
extra = sorted(named - want - {1500, 2099})
assert not extra, 'the answer names %%d years the text does not mention (%%s)' %% (len(extra), ', '.join(map(str, extra[:6])))
`, pyList(ys))
}

// iqrMask is the pandas code that marks (mask) the rows of df whose col
// lies outside the 1.5 IQR fences (lo, hi) of the whole column.
func iqrMask(col string) string {
	return fmt.Sprintf("q1, q3 = df[%[1]s].quantile(0.25), df[%[1]s].quantile(0.75)\niqr = q3 - q1\nlo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr\nmask = (df[%[1]s] < lo) | (df[%[1]s] > hi)", py(col))
}

// linksCheck compares the (text, href) pairs of {out}.csv, in any order,
// with the ones the reference's own parser finds in the page, run in the
// verification sandbox: a text moved to another link's row fails.
func linksCheck(c *bctx) schemas.Check {
	parse := strings.TrimSuffix(htmlParseStep(c).Code, "print(p.title, len(p.links))")
	return schemas.Check{Kind: schemas.CheckPython, Code: "import pandas as pd\n" + parse +
		"\nimport io\nwant = pd.DataFrame(p.links, columns=['text', 'href'])\nwant = pd.read_csv(io.StringIO(want.to_csv(index=False)))  # as a csv reads back: NA is empty\nsame_table('{out}.csv', want)"}
}
