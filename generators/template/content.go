package template

import (
	"fmt"
	"strings"

	"synth/schemas"
)

// sameTableCheck is a python check that compares the table a rollout
// wrote at out with the table the reference's own pandas code makes: the
// check reads input 0 as the reference does (loadCode, into df), runs
// transform on it (which leaves the expected table in df) and asserts
// same_table: as many rows, every column of the expected table, every
// cell within tolerance, rows in any order unless ordered. The expected
// values are computed in the verification sandbox from the real input,
// never by the Go reader.
func sameTableCheck(c *bctx, out, transform string, ordered bool) schemas.Check {
	code := "import pandas as pd\n" + c.loadCode(0, "df") + "\n" + strings.TrimSpace(transform) +
		fmt.Sprintf("\nsame_table(%s, df, ordered=%s)", py(out), pyBool(ordered))
	return schemas.Check{Kind: schemas.CheckPython, Code: code}
}

// describeCheck compares every cell of a describe()-style table at
// {out}.csv with pandas' describe() of cols on the real input: each
// statistic's row, found by its label in the first column (25% or q1,
// median or 50%, ...), holds each column's value within 1e-4 of it (or
// 0.005), so that the population std, swapped min and max, or one column
// right and the others wrong all fail.
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
        assert number_close(v, w, 1e-4, 0.005), 'the %%s of %%s is %%s, expected %%.6g' %% (stat, col, v, w)
`, pyList(cols))}
}
