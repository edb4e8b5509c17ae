package sample

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// A domain table is declared as columns, each a function of the random
// stream and the row number, and written as csv, tsv, xlsx or json. The
// mess of real exports is added by the column functions themselves (mixed
// date formats, thousands separators, stray spaces, spelling variants,
// outliers) and by dirty (blank cells, repeated rows).

// col is one column: its header and how a row's cell is made. num marks
// cells that are numbers, written as numbers to xlsx and json.
type col struct {
	name string
	num  bool
	cell func(r *rand.Rand, i int) string
}

// tableDef is one generated table file.
type tableDef struct {
	name     string // file name; its extension picks the writer
	rows     int
	cols     []col
	nulls    int // cells blanked, spread over nullCols
	nullCols []int
	dups     int // rows repeated
}

func (d tableDef) make(r *rand.Rand) ([]byte, error) {
	rows := [][]string{{}}
	for _, c := range d.cols {
		rows[0] = append(rows[0], c.name)
	}
	for i := 0; i < d.rows; i++ {
		row := make([]string, len(d.cols))
		for k, c := range d.cols {
			row[k] = c.cell(r, i)
		}
		rows = append(rows, row)
	}
	if len(d.nullCols) > 0 || d.dups > 0 {
		nc := d.nullCols
		if len(nc) == 0 {
			nc = []int{0}
		}
		rows = dirty(r, rows, nc, d.nulls, d.dups)
	}
	typ := d.name[strings.LastIndex(d.name, ".")+1:]
	switch typ {
	case "tsv":
		return writeCSV(rows, '\t')
	case "xlsx":
		return writeSheets([]string{"Sheet1"}, [][][]any{d.cells(rows)})
	case "json":
		recs := make([]map[string]any, 0, len(rows)-1)
		for _, row := range d.cells(rows)[1:] {
			m := map[string]any{}
			for k, v := range row {
				m[d.cols[k].name] = v
			}
			recs = append(recs, m)
		}
		return jsonRecords(rows[0], recs)
	}
	return writeCSV(rows, ',')
}

// cells turns the numeric columns' text into numbers; blanks become nil.
func (d tableDef) cells(rows [][]string) [][]any {
	out := make([][]any, len(rows))
	for i, row := range rows {
		out[i] = make([]any, len(row))
		for k, v := range row {
			switch {
			case i > 0 && v == "":
				out[i][k] = nil
			case i > 0 && d.cols[k].num:
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					if f == math.Trunc(f) && !strings.Contains(v, ".") {
						out[i][k] = int64(f)
					} else {
						out[i][k] = f
					}
					continue
				}
				out[i][k] = v
			default:
				out[i][k] = v
			}
		}
	}
	return out
}

// jsonRecords writes records with keys in header order, one per line.
func jsonRecords(header []string, recs []map[string]any) ([]byte, error) {
	var b strings.Builder
	b.WriteString("[\n")
	for i, m := range recs {
		b.WriteString("  {")
		for k, h := range header {
			kb, _ := json.Marshal(h)
			vb, err := json.Marshal(m[h])
			if err != nil {
				return nil, err
			}
			if k > 0 {
				b.WriteString(", ")
			}
			b.Write(kb)
			b.WriteString(": ")
			b.Write(vb)
		}
		b.WriteString("}")
		if i < len(recs)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	return []byte(b.String()), nil
}

// Column makers.

func seqID(prefix string, start int) func(*rand.Rand, int) string {
	return func(_ *rand.Rand, i int) string { return fmt.Sprintf("%s%d", prefix, start+i) }
}

func oneOf(xs ...string) func(*rand.Rand, int) string {
	return func(r *rand.Rand, _ int) string { return pick(r, xs) }
}

// messyCat picks a category and now and then writes it as people do:
// lower case, upper case or with a stray space.
func messyCat(rate int, xs ...string) func(*rand.Rand, int) string {
	return func(r *rand.Rand, _ int) string {
		v := pick(r, xs)
		switch r.IntN(rate) {
		case 0:
			return strings.ToLower(v)
		case 1:
			return v + " "
		case 2:
			return strings.ToUpper(v)
		}
		return v
	}
}

// norm draws mean±sd rounded to dec decimals, clamped at lo; one row in
// outlierEvery (0: none) is multiplied by 8.
func norm(mean, sd, lo float64, dec, outlierEvery int) func(*rand.Rand, int) string {
	return func(r *rand.Rand, _ int) string {
		v := math.Max(lo, mean+sd*r.NormFloat64())
		if outlierEvery > 0 && r.IntN(outlierEvery) == 0 {
			v *= 8
		}
		return strconv.FormatFloat(math.Round(v*math.Pow10(dec))/math.Pow10(dec), 'f', dec, 64)
	}
}

func intIn(lo, hi int) func(*rand.Rand, int) string {
	return func(r *rand.Rand, _ int) string { return strconv.Itoa(lo + r.IntN(hi-lo+1)) }
}

// money writes amounts with thousands separators, as exports from
// spreadsheets do: "1,234.50".
func money(mean, sd float64) func(*rand.Rand, int) string {
	return func(r *rand.Rand, _ int) string { return thousands(math.Max(1, mean+sd*r.NormFloat64())) }
}

// dayOf gives the i-th row's date: start plus i*step days plus jitter.
func dayOf(start, step, jitter int) func(*rand.Rand, int) int {
	return func(r *rand.Rand, i int) int {
		j := 0
		if jitter > 0 {
			j = r.IntN(jitter)
		}
		return start + i*step + j
	}
}

func isoDate(start, step, jitter int) func(*rand.Rand, int) string {
	d := dayOf(start, step, jitter)
	return func(r *rand.Rand, i int) string { return date(d(r, i)) }
}

// mixedDate writes dates in the formats a merged export has: ISO, US
// month/day/year, day.month.year and "Jan 2, 2006".
func mixedDate(start, step, jitter int) func(*rand.Rand, int) string {
	d := dayOf(start, step, jitter)
	layouts := []string{"2006-01-02", "2006-01-02", "01/02/2006", "02.01.2006", "Jan 2, 2006"}
	return func(r *rand.Rand, i int) string { return day0.AddDate(0, 0, d(r, i)).Format(pick(r, layouts)) }
}

func person(r *rand.Rand, _ int) string { return personName(r) }

var zhNames = []string{"王伟", "李娜", "张敏", "刘洋", "陈静", "杨磊", "赵丽", "黄强", "周杰", "吴芳", "徐明", "孙悦"}

func zhPerson(r *rand.Rand, _ int) string { return pick(r, zhNames) }
