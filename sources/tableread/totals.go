package tableread

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// totalLabel is the first cell of a row that sums (or averages) the rows
// above it rather than being one of them.
var totalLabel = regexp.MustCompile(`(?i)^\s*(grand\s+)?(total|totals|sum|all|overall|average|mean)\b`)

// dropTotal leaves a table's last row out when it is the rows' total (or
// mean) rather than a row of its own: its first cell says so and one of
// its numbers is the sum (or mean) of the numbers above it. A spreadsheet
// pasted as a table ends that way, and a task counting or summing its rows
// would count everything twice. The Layout then reads only the rows above
// (nrows), so the reference code says so too, and records the row's label
// (Layout.Total) for the query to say so.
func dropTotal(t *Table) {
	n := len(t.Rows)
	if n < 3 || len(t.Header) < 2 {
		return
	}
	last := t.Rows[n-1]
	if !totalLabel.MatchString(last[0]) {
		return
	}
	for _, row := range t.Rows[:n-1] {
		if strings.EqualFold(strings.TrimSpace(row[0]), strings.TrimSpace(last[0])) {
			return // "All" is one of the column's values, not a total's label
		}
	}
	for c := 1; c < len(t.Header); c++ {
		v, ok := cellNumber(last[c])
		if !ok {
			continue
		}
		sum, count, numeric := 0.0, 0, true
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, row := range t.Rows[:n-1] {
			if strings.TrimSpace(row[c]) == "" {
				continue
			}
			x, ok := cellNumber(row[c])
			if !ok {
				numeric = false
				break
			}
			sum += x
			count++
			lo, hi = min(lo, x), max(hi, x)
		}
		if !numeric || count < 2 || hi == lo {
			continue
		}
		// A mean is judged against the column's spread, not its size: a
		// year is always within 0.5% of the mean of years.
		if near(v, sum) || math.Abs(v-sum/float64(count)) <= 0.005*(hi-lo) {
			t.Rows = t.Rows[:n-1]
			t.Layout.NRows = n - 1
			t.Layout.Total = strings.TrimSpace(last[0])
			t.Layout.TotalIsMean = !near(v, sum)
			return
		}
	}
}

// cellNumber reads a cell written as a number, thousands separators and
// a currency sign allowed.
func cellNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "$€£¥")
	s = strings.ReplaceAll(s, ",", "")
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
}

// near is true when a written total agrees with the computed one to the
// rounding a spreadsheet shows: 0.5%, or half a unit of a total of 50 or
// more.
func near(written, computed float64) bool {
	d := math.Abs(written - computed)
	return d <= 0.005*math.Abs(computed) || (d <= 0.5 && math.Abs(computed) >= 50)
}
