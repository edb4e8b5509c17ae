package filters

import (
	"slices"
	"strings"
	"unicode"
)

// words splits text into normalised words for hashing and n-grams: lower
// case, letters and digits only, every other character a separator, and
// each Han, Hiragana, Katakana or Hangul character a word of its own (those
// scripts do not separate words with spaces).
func words(text string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range text {
		switch {
		case isCJK(r):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// hashWords returns a 64-bit FNV-1a hash of words joined by a separator.
func hashWords(ws []string) uint64 {
	h := uint64(14695981039346656037)
	for i, w := range ws {
		if i > 0 {
			h = (h ^ 0x1f) * 1099511628211
		}
		for j := 0; j < len(w); j++ {
			h = (h ^ uint64(w[j])) * 1099511628211
		}
	}
	return h
}

// ngrams returns the distinct hashes of the n-word windows of ws; fewer than
// n words make one n-gram of them all, and no words none.
func ngrams(ws []string, n int) map[uint64]struct{} {
	out := map[uint64]struct{}{}
	if len(ws) == 0 {
		return out
	}
	if len(ws) < n {
		out[hashWords(ws)] = struct{}{}
		return out
	}
	for i := 0; i+n <= len(ws); i++ {
		out[hashWords(ws[i:i+n])] = struct{}{}
	}
	return out
}

// sortedGrams returns the n-grams of ws as ngrams does, as a sorted slice:
// an eighth of a map's memory, and intersections by merging.
func sortedGrams(ws []string, n int) []uint64 {
	set := ngrams(ws, n)
	out := make([]uint64, 0, len(set))
	for g := range set {
		out = append(out, g)
	}
	slices.Sort(out)
	return out
}
