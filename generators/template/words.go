package template

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

var wordRE = regexp.MustCompile(`[a-z]+`)

// words are the runs of ASCII letters of a text, lower-cased: the same
// tokens as Python's re.findall(r'[a-z]+', text.lower()).
func words(text string) []string { return wordRE.FindAllString(strings.ToLower(text), -1) }

type wordCount struct {
	word string
	n    int
}

// frequencies counts words of at least minLen letters, most frequent first,
// ties in alphabetical order.
func frequencies(ws []string, minLen int) []wordCount {
	m := map[string]int{}
	for _, w := range ws {
		if len(w) >= minLen {
			m[w]++
		}
	}
	out := make([]wordCount, 0, len(m))
	for w, n := range m {
		out = append(out, wordCount{w, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].word < out[j].word
	})
	return out
}

// stopwords are left out of keyword questions.
var stopwords = map[string]bool{"the": true, "and": true, "that": true, "with": true, "this": true, "from": true, "for": true,
	"was": true, "were": true, "are": true, "have": true, "has": true, "had": true, "which": true, "their": true, "there": true,
	"they": true, "been": true, "into": true, "after": true, "about": true, "would": true, "could": true, "should": true}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// plural writes a count and its noun, the noun in the plural unless the
// count is one: "1 page", "2 pages".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
