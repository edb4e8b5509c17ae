package tableread

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var (
	// grouped is a number written with dots between groups of three digits
	// (1.613, 22.927,5): thousands separators, as German and Dutch write.
	grouped = regexp.MustCompile(`^[-+]?[1-9]\d{0,2}(\.\d{3})+(,\d+)?$`)
	plain   = regexp.MustCompile(`^[-+]?\d+$`)
	// naMark is a cell that statistical offices write for a missing figure
	// and pandas does not read as one.
	naMark = regexp.MustCompile(`^(\.{1,3}|…|x)$`)
)

// thousandsDots reports columns of delimited text (not comma-separated)
// whose numbers above 999 are written with dots between groups of three
// (1.613) among plain ones of three digits or fewer: there is no other
// decimal point in them, so pandas must read the dots as thousands
// separators or take 1.613 for a fraction.
func thousandsDots(rows [][]string) bool {
	groups := 0
	for c := range rows[0] {
		g, ints, other := 0, 0, false
		for _, r := range rows {
			v := strings.TrimSpace(r[c])
			switch {
			case grouped.MatchString(v):
				g++
			case plain.MatchString(v):
				if len(strings.TrimLeft(v, "+-")) > 3 {
					other = true // 1613 written plain: the dots are not separators
				}
				ints++
			case decPoint.MatchString(v):
				other = true
			}
		}
		if other && g > 0 {
			return false
		}
		if g > 0 && ints > 0 {
			groups += g
		}
	}
	return groups > 0
}

// markNA finds the columns whose cells are numbers but for a mark standing
// for a missing figure (".", "..", "…", "x"), or are all dots (a year no
// figure was reported for), sets l.NAValues to the marks found and
// empties those cells, as pandas reads them with na_values.
func markNA(rows [][]string, l *Layout) {
	marks := map[string]bool{}
	for c := range rows[0] {
		nums, seen := 0, map[string]bool{}
		numeric := true
		for _, r := range rows {
			v := strings.TrimSpace(r[c])
			switch {
			case v == "":
			case naMark.MatchString(v):
				seen[v] = true
			case isFloat(v):
				nums++
			default:
				numeric = false
			}
		}
		dots := len(seen) > 0 && !seen["x"] && !seen["…"]
		if !numeric || len(seen) == 0 || nums < 3 && !(nums == 0 && dots && marked(rows, c) >= 3) {
			continue // a column of x alone is ticks, not missing figures
		}
		for _, r := range rows {
			if seen[strings.TrimSpace(r[c])] {
				r[c] = ""
			}
		}
		for m := range seen {
			marks[m] = true
		}
	}
	for _, m := range []string{".", "..", "...", "…", "x"} {
		if marks[m] {
			l.NAValues = append(l.NAValues, m)
		}
	}
}

// marked counts the cells of column c that are missing-figure marks.
func marked(rows [][]string, c int) int {
	n := 0
	for _, r := range rows {
		if naMark.MatchString(strings.TrimSpace(r[c])) {
			n++
		}
	}
	return n
}

func isFloat(v string) bool {
	_, err := strconv.ParseFloat(v, 64)
	return err == nil
}

// naList is the na_values argument: the marks as a Python list.
func naList(marks []string) string {
	q := make([]string, len(marks))
	for i, m := range marks {
		q[i] = strconv.Quote(m)
	}
	return fmt.Sprintf("na_values=[%s]", strings.Join(q, ", "))
}

// markBlank empties the cells of nothing but spaces (" ", as some
// spreadsheet writers leave an emptied cell) and adds each such text to
// l.NAValues, so that pandas reads them as missing too rather than as a
// value " " that a count of groups or of missing values would take for
// one. A table padded with spaces of more than three widths is left as
// pandas reads it.
func markBlank(rows [][]string, l *Layout) {
	seen := map[string]bool{}
	for _, r := range rows {
		for _, v := range r {
			if v != "" && strings.TrimSpace(v) == "" {
				seen[v] = true
			}
		}
	}
	if len(seen) > 3 {
		return // padding of every width: pandas keeps it, and so does this reading
	}
	for _, r := range rows {
		for i, v := range r {
			if seen[v] {
				r[i] = ""
			}
		}
	}
	blanks := make([]string, 0, len(seen))
	for v := range seen {
		blanks = append(blanks, v)
	}
	slices.Sort(blanks)
	l.NAValues = append(l.NAValues, blanks...)
}

// markBools marks (Table.Bools) the columns whose every filled cell is
// a boolean as pandas reads one (True, False, TRUE, false …): pandas makes
// them bools, which a query's "False" does not equal, so no template picks
// them.
func markBools(t *Table) {
	for c := range t.Header {
		n, bools := 0, true
		for _, row := range t.Rows {
			v := strings.TrimSpace(row[c])
			if v == "" {
				continue
			}
			n++
			if !boolWord.MatchString(v) {
				bools = false
				break
			}
		}
		if bools && n > 0 {
			if t.Bools == nil {
				t.Bools = make([]bool, len(t.Header))
			}
			t.Bools[c] = true
		}
	}
}

var boolWord = regexp.MustCompile(`^(True|False|TRUE|FALSE|true|false)$`)
