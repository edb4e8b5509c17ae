package template

import (
	"regexp"
	"strconv"
)

// Pairs by meaning: two measures are multiplied only when the product is
// an amount (a price or rate times a quantity), and two tables are joined
// only on a key whose values really overlap and whose name says which
// entity it keys.

var (
	// perUnitWords name what a quantity is multiplied by: a price, a rate,
	// a cost or weight per unit.
	perUnitWords = regexp.MustCompile(`(?i)(price|fare|rate|wage|cost|fee|tariff|per[ _.]|_per_|unit[ _.]?(price|cost|weight)|each)`)
	// quantityWords name how many of something there are.
	quantityWords = regexp.MustCompile(`(?i)(quantity|\bqty|qty$|units|count($|s|[^a-z])|sold|hours|nights|days|pieces|items|volume|number[ _.]of|^n[ _.]|^num[ _.])`)
	// genericKey names a key that says nothing of what it keys.
	genericKey = regexp.MustCompile(`(?i)^\s*(id|key|index|idx|no\.?|nr\.?|#|code|row|pk|unnamed: \d+)\s*$`)
)

// productPair picks a price-like measure and a quantity of t, whose
// product is an amount (price × quantity, rate × hours); ok is false when
// t has no such pair.
func productPair(c *bctx, t *table) (per, qty column, ok bool) {
	var pers, qtys []column
	for _, m := range t.measures() {
		switch {
		case perUnitWords.MatchString(m.name):
			pers = append(pers, m)
		case quantityWords.MatchString(m.name) && m.role == roleExtensive:
			qtys = append(qtys, m)
		}
	}
	if len(pers) == 0 || len(qtys) == 0 {
		return per, qty, false
	}
	return pers[c.rng.IntN(len(pers))], qtys[c.rng.IntN(len(qtys))], true
}

// joinable reports whether a's column ka and b's unique column kb key the
// same things: most distinct keys of one side are found in the other, and
// a generic name ("id", "key") holds keys that are not just row numbers.
func joinable(a, b *table, ka, kb column) bool {
	left, right := keySet(a, ka.idx), keySet(b, kb.idx)
	shared := 0
	for k := range left {
		if right[k] {
			shared++
		}
	}
	if shared*2 < len(left) && shared*2 < len(right) || shared == 0 {
		return false
	}
	if genericKey.MatchString(ka.name) && (integerKeys(left) || integerKeys(right)) {
		return false // both numbered 1, 2, 3 …: the same numbers, not the same things
	}
	return true
}

func keySet(t *table, idx int) map[string]bool {
	s := map[string]bool{}
	for _, r := range t.rows {
		if r[idx] != "" {
			s[r[idx]] = true
		}
	}
	return s
}

// integerKeys reports keys that are all whole numbers.
func integerKeys(keys map[string]bool) bool {
	for k := range keys {
		if _, err := strconv.ParseInt(k, 10, 64); err != nil {
			return false
		}
	}
	return len(keys) > 0
}
