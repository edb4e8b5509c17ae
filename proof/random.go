package proof

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"synth/checks"
)

// BlankAnswer is the battery case that keeps the reference's files and
// answers nothing: when it passes, the checks do not judge the answer and
// the random answers prove nothing (RandomAnswers).
const BlankAnswer = "answer_blank"

// randomPrefix starts the names of RandomAnswers' cases.
const randomPrefix = "random_answer_"

// IsRandom reports whether battery case name is one of RandomAnswers'.
func IsRandom(name string) bool { return strings.HasPrefix(name, randomPrefix) }

// randomSuffixes end some random answers: a check that passes on how an
// answer ends, not on what it states, meets each.
var randomSuffixes = []string{".", "!", "?", " ", "\n", "0", "42", "-1", "1e9", "%", ")", "]", "'", "\"", "…", "。", "done", "none", "True", "NaN", "\t"}

// RandomAnswers are wrong solutions that keep ref's files and answer
// something unrelated to the truth, drawn from seed: random numbers, random
// lists of numbers, random words with a last word of every length from 1
// to 40, and random words ending in each of a set of suffixes; first of
// all the blank answer. A check that passes one of them (while the blank
// answer fails) lets an answer through for how it looks, not for what it
// states: a backdoor, whatever its form.
func RandomAnswers(ref checks.Case, seed string) []Wrong {
	h := fnv.New64a()
	h.Write([]byte(seed))
	rng := rand.New(rand.NewPCG(h.Sum64(), 37))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return string(b)
	}
	words := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = word(1 + rng.IntN(9))
		}
		return strings.Join(ws, " ")
	}
	var answers []string
	for i := 0; i < 6; i++ {
		answers = append(answers, fmt.Sprint(rng.IntN(1000)-100), fmt.Sprintf("%.3f", rng.Float64()*200-50))
	}
	for i := 0; i < 4; i++ {
		var xs []string
		for k := 0; k < 3+rng.IntN(8); k++ {
			xs = append(xs, fmt.Sprintf("%.2f", rng.Float64()*100))
		}
		answers = append(answers, strings.Join(xs, ", "), "["+strings.Join(xs, ", ")+"]")
	}
	for n := 1; n <= 40; n++ {
		answers = append(answers, words(1+rng.IntN(4))+" "+word(n))
	}
	for _, s := range randomSuffixes {
		answers = append(answers, words(2+rng.IntN(4))+s)
	}
	out := []Wrong{answerCase(ref, BlankAnswer, "")}
	for i, a := range answers {
		out = append(out, answerCase(ref, fmt.Sprintf("%s%d", randomPrefix, i), a))
	}
	return out
}

// answerCase is ref with its answer replaced by a.
func answerCase(ref checks.Case, name, a string) Wrong {
	c := ref
	c.Observations = nil
	c.Answer, c.Messages = a, finished(a)
	return Wrong{name, c}
}
