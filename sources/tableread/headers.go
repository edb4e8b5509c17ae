package tableread

import (
	"fmt"
	"regexp"
	"strings"
)

// hasNumber reports a record with a number among its fields.
func (r record) hasNumber() bool {
	for _, f := range r.fields {
		if number.MatchString(strings.TrimSpace(f)) {
			return true
		}
	}
	return false
}

// wideRecord is the header of delimited text whose first lines of full
// width are notes over a few fields ("simply cannot resist writing,,,,,
// some notes"): the record right above the first two records in a row
// that hold numbers, when it has more fields filled than record h, the one
// the first rule took, and no record from h to it holds a number (a row of
// years above quarters is a header of two rows, not notes). -1 when there
// is none.
func wideRecord(recs []record, h, width int) int {
	prev := -1
	for j := h + 1; j+1 < len(recs); j++ {
		if recs[j].nonEmpty() == 0 {
			continue
		}
		next := j + 1
		for next < len(recs) && recs[next].nonEmpty() == 0 {
			next++
		}
		if next < len(recs) && recs[j].hasNumber() && recs[next].hasNumber() {
			if prev <= h || len(recs[prev].fields) != width || recs[prev].nonEmpty() <= recs[h].nonEmpty() {
				return -1
			}
			for k := h; k <= prev; k++ {
				if recs[k].hasNumber() {
					return -1
				}
			}
			return prev
		}
		prev = j
	}
	return -1
}

// missingWord is a cell that says a value is missing rather than naming
// anything.
var missingWord = regexp.MustCompile(`(?i)^(|-+|\.+|…|\*+|\?|x|n/?a|nan|null|none|nil|missing|unknown|k\.?\s?a\.?)$`)

// headerRows is an error when the first rows below a header are more
// header: text (words, not missing markers) in two or more of the columns
// whose other cells are numbers, above the first row that holds one
// there, as cross-tabulations written over several header rows do
// ("provincie" / "A" / "Groningen" above the figures). Which row names
// the columns is then a guess.
func headerRows(header record, body []record) error {
	// Which columns hold numbers is judged from the rows that do: from
	// the first row with two numbers or more down.
	from := len(body)
	for i, r := range body {
		n := 0
		for _, f := range r.fields {
			if number.MatchString(strings.TrimSpace(f)) {
				n++
			}
		}
		if n >= 2 {
			from = i
			break
		}
	}
	var numeric []int
	for c := range header.fields {
		nums, cells := 0, 0
		for _, r := range body[from:] {
			if c < len(r.fields) && !missingWord.MatchString(strings.TrimSpace(r.fields[c])) {
				cells++
				if number.MatchString(strings.TrimSpace(r.fields[c])) {
					nums++
				}
			}
		}
		if nums >= 3 && nums*5 >= cells*4 {
			numeric = append(numeric, c)
		}
	}
	if len(numeric) < 2 {
		return nil
	}
	for _, r := range body[:min(len(body), 6)] {
		words, figures := 0, 0
		for _, c := range numeric {
			if c >= len(r.fields) {
				continue
			}
			v := strings.TrimSpace(r.fields[c])
			switch {
			case number.MatchString(v):
				figures++
			case !missingWord.MatchString(v):
				words++
			}
		}
		if figures > 0 {
			return nil
		}
		if words >= 2 {
			return &Ambiguous{fmt.Sprintf("a header over several rows (line %d below the header on line %d names columns of numbers too): which row names the columns is a guess", r.line+1, header.line+1)}
		}
	}
	return nil
}
