package template

import (
	"fmt"
	"strings"

	"synth/schemas"
)

var textTypes = []string{"txt", "md"}

func init() {
	register(&tmpl{Info: Info{Name: "text.wordcount", Version: 1, Category: schemas.CategoryText, Subcategory: GroupTextMining, FileTypes: textTypes},
		inputs: 1, build: buildWordCount, mutate: mutateAnswer})
	register(&tmpl{Info: Info{Name: "text.topword", Version: 1, Category: schemas.CategoryText, Subcategory: GroupTextMining, FileTypes: textTypes},
		inputs: 1, build: buildTopWord, mutate: mutateWrongGroup})
}

// readTextStep loads file i into text.
func readTextStep(c *bctx, i int) schemas.RefStep {
	return step("Read the text and look at its beginning.",
		fmt.Sprintf("text = open(%s, encoding='utf-8').read()\nprint(len(text))\nprint(text[:500])", py(c.dpath(i))))
}

func buildWordCount(c *bctx) []spec {
	fr := frequencies(words(c.text(0)), 5)
	var cands []wordCount
	for _, w := range fr {
		if !stopwords[w.word] && w.n >= 3 {
			cands = append(cands, w)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	if len(cands) > 8 {
		cands = cands[:8]
	}
	w := cands[c.rng.IntN(len(cands))]
	return []spec{{
		params: "wordcount:" + w.word,
		en: []string{
			fmt.Sprintf("How many times does the word \"%s\" appear in this text? Count whole words, ignoring case.", w.word),
			fmt.Sprintf("Count the occurrences of '%s' in the document (case-insensitive, whole words only, where a word is a run of letters).", w.word),
		},
		zh: []string{
			fmt.Sprintf("单词“%s”在这篇文章中出现了多少次？按完整单词统计，不区分大小写。", w.word),
			fmt.Sprintf("统计文本里 %s 这个词出现的次数（忽略大小写，只算完整单词）。", w.word),
		},
		steps: []schemas.RefStep{
			readTextStep(c, 0),
			step("Split the text into lower-case words and count the target word.",
				fmt.Sprintf("import re\nwords = re.findall(r'[a-z]+', text.lower())\nprint(words.count(%s))", py(w.word))),
		},
		answer:   fmt.Sprintf("The word \"%s\" appears %d times.", w.word, w.n),
		answerZh: fmt.Sprintf("单词“%s”共出现 %d 次。", w.word, w.n),
		checks:   []schemas.Check{answerInt(w.n)},
	}}
}

func buildTopWord(c *bctx) []spec {
	minLen := 6
	fr := frequencies(words(c.text(0)), minLen)
	var top []wordCount
	for _, w := range fr {
		if !stopwords[w.word] {
			top = append(top, w)
		}
	}
	if len(top) < 4 || top[0].n == top[1].n || top[2].n == top[3].n {
		return nil
	}
	three := []string{top[0].word, top[1].word, top[2].word}
	return []spec{{
		params: "topword",
		en: []string{
			fmt.Sprintf("What are the three most frequent words with at least %d letters in this text? Ignore case.", minLen),
			fmt.Sprintf("Find the top 3 words (%d or more letters, case-insensitive) by frequency and give their counts.", minLen),
		},
		zh: []string{
			fmt.Sprintf("这篇文本中长度至少为 %d 个字母、出现频率最高的三个单词是什么？忽略大小写。", minLen),
			fmt.Sprintf("统计词频，找出出现次数最多的前三个单词（至少 %d 个字母，不区分大小写），并给出次数。", minLen),
		},
		steps: []schemas.RefStep{
			readTextStep(c, 0),
			step("Count the words with enough letters and take the top three.",
				fmt.Sprintf("import re\nfrom collections import Counter\nwords = [w for w in re.findall(r'[a-z]+', text.lower()) if len(w) >= %d]\nprint(Counter(words).most_common(5))", minLen)),
		},
		answer: fmt.Sprintf("The three most frequent words are %s (%d), %s (%d) and %s (%d).", top[0].word, top[0].n, top[1].word, top[1].n, top[2].word, top[2].n),
		answerZh: fmt.Sprintf("出现最多的三个单词是 %s（%d 次）、%s（%d 次）和 %s（%d 次）。", top[0].word, top[0].n, top[1].word, top[1].n,
			top[2].word, top[2].n),
		checks: []schemas.Check{answerHas(three...)},
	}}
}

var _ = strings.ToLower
