package sample

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

var (
	articleTitle = "The Harbor Light: A Short History of the Old Lighthouse"
	subjects     = []string{"The lighthouse", "The keeper", "The harbor", "The town council", "The old lamp", "The fishing fleet", "The lighthouse keeper", "The coast guard"}
	verbs        = []string{"guided", "watched over", "welcomed", "warned", "protected", "served", "inspired", "outlasted"}
	objects      = []string{"the fishing boats", "sailors in the storm", "visitors from the city", "the merchant ships", "generations of families", "the rocky coast", "the night ferry", "the village children"}
	tails        = []string{"for many years", "through every winter", "despite the rising sea", "with a steady light", "long after the railway came", "until the new radar arrived", "on the darkest nights", "as the town grew"}
)

// makeArticle writes a plain-text article: a title, paragraphs of sentences
// with a few dated facts that counting and lookup tasks can ask about.
func makeArticle(r *rand.Rand) ([]byte, error) {
	var b strings.Builder
	b.WriteString(articleTitle + "\n\n")
	facts := []string{
		"The lighthouse was built in 1871 by a crew of forty workers.",
		"Its lamp could be seen from 28 kilometers away on a clear night.",
		"In 1932 the tower was painted red and white for the first time.",
		"The last keeper, Margaret Olsen, retired in 1989 after 31 years of service.",
		"Today the museum in the lighthouse welcomes about 12000 visitors every year.",
	}
	for p := 0; p < 6; p++ {
		n := 4 + r.IntN(3)
		for s := 0; s < n; s++ {
			if s == 1 && p < len(facts) {
				b.WriteString(facts[p] + " ")
			}
			fmt.Fprintf(&b, "%s %s %s %s. ", pick(r, subjects), pick(r, verbs), pick(r, objects), pick(r, tails))
		}
		b.WriteString("\n\n")
	}
	return []byte(strings.TrimSpace(b.String()) + "\n"), nil
}
