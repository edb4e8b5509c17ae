package template

import (
	"math"
	"sort"
	"strconv"
)

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return sum(xs) / float64(len(xs))
}

// std is the sample standard deviation (ddof=1), as pandas computes it.
func std(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	m := mean(xs)
	s := 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(xs)-1))
}

// quantile interpolates linearly, as pandas' default does.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

func minMax(xs []float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// group is one group of a group-by: its key and its values.
type group struct {
	key  string
	vals []float64
}

// groupBy groups the numeric column val by the key column, dropping null
// keys (pandas' default), in key order.
func (t *table) groupBy(key, val int) []group {
	idx := map[string]int{}
	var gs []group
	for _, r := range t.rows {
		k := r[key]
		if k == "" {
			continue
		}
		i, ok := idx[k]
		if !ok {
			i = len(gs)
			idx[k] = i
			gs = append(gs, group{key: k})
		}
		if r[val] == "" {
			continue
		}
		if f, err := strconv.ParseFloat(r[val], 64); err == nil {
			gs[i].vals = append(gs[i].vals, f)
		}
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].key < gs[j].key })
	return gs
}

// counts counts the non-null values of a column, in key order.
func (t *table) counts(col int) []group {
	var gs []group
	idx := map[string]int{}
	for _, r := range t.rows {
		k := r[col]
		if k == "" {
			continue
		}
		i, ok := idx[k]
		if !ok {
			i = len(gs)
			idx[k] = i
			gs = append(gs, group{key: k})
		}
		gs[i].vals = append(gs[i].vals, 1)
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].key < gs[j].key })
	return gs
}

// argmax returns the group whose aggregate is largest and whether it is
// unique (a tie makes a question ambiguous).
func argmax(gs []group, agg func([]float64) float64) (group, float64, bool) {
	best, bv, unique := group{}, math.Inf(-1), true
	for _, g := range gs {
		v := agg(g.vals)
		if math.IsNaN(v) {
			continue
		}
		if v > bv {
			best, bv, unique = g, v, true
		} else if v == bv {
			unique = false
		}
	}
	return best, bv, unique && len(gs) > 0
}

// num formats a number for a reference answer: up to 2 decimals, no
// trailing zeros beyond them.
func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(math.Round(x*100)/100, 'f', 2, 64)
}

func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// pairs returns the rows where both columns are numbers.
func (t *table) pairs(a, b int) (xs, ys []float64) {
	for _, r := range t.rows {
		if r[a] == "" || r[b] == "" {
			continue
		}
		x, e1 := strconv.ParseFloat(r[a], 64)
		y, e2 := strconv.ParseFloat(r[b], 64)
		if e1 == nil && e2 == nil {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	return xs, ys
}

func pearson(xs, ys []float64) float64 {
	mx, my := mean(xs), mean(ys)
	var sxy, sxx, syy float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
		syy += (ys[i] - my) * (ys[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}
