package template

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"synth/schemas"
)

var textTypes = []string{"txt", "md"}

func init() {
	reg := func(name, group string, types []string, req []string, b func(*bctx) ([]spec, error), m func(*schemas.Task) *schemas.Reference) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryText, Subcategory: group, FileTypes: types, Requires: req},
			inputs: 1, build: b, mutate: m})
	}
	reg("text.wordcount", GroupTextMining, textTypes, nil, buildWordCount, mutateAnswer)
	reg("text.topword", GroupTextMining, textTypes, nil, buildTopWord, mutateWrongGroup)
	reg("text.summary", GroupTextMining, textTypes, nil, buildTextSummary, mutateAnswer)
	reg("text.years", GroupDocQA, textTypes, nil, buildYears, mutateWrongGroup)
	reg("text.lines", GroupTextMining, textTypes, nil, buildLines, mutateAnswer)
	reg("text.sentences", GroupTextMining, []string{"txt"}, nil, buildSentences, mutateEmptyFile)
	reg("text.freqtable", GroupTextMining, textTypes, nil, buildFreqTable, mutateEmptyFile)
	reg("text.wordcloud", GroupTextMining, textTypes, []string{"wordcloud"}, buildWordCloud, mutateBlankImage)
	reg("text.replace", GroupTextMining, textTypes, nil, buildReplace, mutateCopyInput)
	reg("md.headings", GroupDocQA, []string{"md"}, nil, buildHeadings, mutateVagueAnswer)
	reg("md.table", GroupDocQA, []string{"md"}, nil, buildMDTable, mutateEmptyFile)
}

// readTextStep loads file i into text.
func readTextStep(c *bctx, i int) schemas.RefStep {
	return step("Read the text and look at its beginning.",
		fmt.Sprintf("text = open(%s, encoding=%s).read()\nprint(len(text))\nprint(text[:500])", py(c.dpath(i)), py(c.textEncoding(i))))
}

func buildWordCount(c *bctx) ([]spec, error) {
	fr := frequencies(words(c.text(0)), 5)
	var cands []wordCount
	for _, w := range fr {
		if !stopwords[w.word] && w.n >= 3 {
			cands = append(cands, w)
		}
	}
	if len(cands) == 0 {
		return nil, nil
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
		checks: []schemas.Check{answerInt(w.n), recomputed(textSetup(c, 0),
			recomputedInt(fmt.Sprintf("re.findall(r'[a-z]+', text.lower()).count(%s)", py(w.word))))},
	}}, nil
}

func buildTopWord(c *bctx) ([]spec, error) {
	minLen := 6
	fr := frequencies(words(c.text(0)), minLen)
	var top []wordCount
	for _, w := range fr {
		if !stopwords[w.word] {
			top = append(top, w)
		}
	}
	if len(top) < 4 || top[0].n == top[1].n || top[2].n == top[3].n {
		return nil, nil
	}
	three := []string{top[0].word, top[1].word, top[2].word}
	sp := spec{
		params: "topword",
		en: []string{
			fmt.Sprintf("What are the three most frequent words with at least %d letters in this text, and how often does each occur? Ignore case.", minLen),
			fmt.Sprintf("Find the top 3 words (%d or more letters, case-insensitive) by frequency and give their counts.", minLen),
		},
		zh: []string{
			fmt.Sprintf("这篇文本中长度至少为 %d 个字母、出现频率最高的三个单词是什么？各出现多少次？忽略大小写。", minLen),
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
	}
	said := append(append(slices.Clone(sp.en), sp.zh...), sp.answer, sp.answerZh)
	sp.checks = []schemas.Check{answerHas(three...), topWordsCheck(c, top, 3, minLen, said...), wordsInOrder(three, []int{top[0].n, top[1].n, top[2].n}),
		answerInt(top[0].n), answerInt(top[1].n), answerInt(top[2].n),
		recomputed(textSetup(c, 0)+fmt.Sprintf("\nfrom collections import Counter\ntop = Counter(w for w in re.findall(r'[a-z]+', text.lower()) if len(w) >= %d).most_common(3)", minLen),
			recomputedInt("top[0][1]"), recomputedInt("top[1][1]"), recomputedInt("top[2][1]")),
		answerInOrder([]int{top[0].n, top[1].n, top[2].n}, [][2]string{{regexp.QuoteMeta(top[0].word), ""}, {regexp.QuoteMeta(top[1].word), ""}, {regexp.QuoteMeta(top[2].word), ""}})}
	return []spec{sp}, nil
}

func buildTextSummary(c *bctx) ([]spec, error) {
	text := c.text(0)
	nw := len(strings.Fields(text))
	paras := 0
	for _, block := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if strings.TrimSpace(block) != "" {
			paras++
		}
	}
	if nw < 20 || paras < 2 {
		return nil, nil
	}
	return []spec{{
		params: "summary",
		en: []string{"Give me a quick profile of this text: how many words (whitespace-separated) and how many paragraphs (blocks separated by blank lines) does it have?",
			"Count the words (split on whitespace) and the paragraphs (separated by empty lines) in the document."},
		zh: []string{"请简单统计一下这段文本：按空白分隔有多少个词？按空行分隔有多少个段落？", "统计文档的词数（按空白切分）和段落数（以空行分隔）。"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("split() for words; blank-line blocks for paragraphs.",
			"words = len(text.split())\nparas = len([b for b in text.replace('\\r\\n', '\\n').split('\\n\\n') if b.strip()])\nprint(words, paras)")},
		answer: fmt.Sprintf("The text has %d words in %d paragraphs.", nw, paras), answerZh: fmt.Sprintf("文本共有 %d 个词，%d 个段落。", nw, paras),
		checks: []schemas.Check{answerInt(nw), answerInt(paras), answerInOrder([]int{nw, paras}, summaryLabels), recomputed(textSetup(c, 0),
			recomputedInt("len(text.split())"), recomputedInt("len([b for b in text.replace('\\r\\n', '\\n').split('\\n\\n') if b.strip()])"))},
	}}, nil
}

// summaryLabels name a text's words and paragraphs in an answer: "312
// words", "paragraphs: 4", 词数 312, 4 个段落.
var summaryLabels = [][2]string{
	{`words?|词数`, `(?:words?|个词|词)`},
	{`paragraphs?|段落数`, `(?:paragraphs?|个段落|段落|段)`},
}

var yearRE = regexp.MustCompile(`\b(1[5-9]\d\d|20\d\d)\b`)

// unitAfter matches a unit right after a number: "1500 m", "2000 km",
// "1600 metres" are measurements, not years.
var unitAfter = regexp.MustCompile(`^[ \t]*(?:(?:m|km|cm|mm|metres|meters|miles|mi|yards|yd|feet|ft|kg|g|lb|lbs|s|sec|seconds|min|minutes|h|hours|ml|l|kcal|cal|w|kw|mb|gb|px)\b|%)`)

// yearsIn are the four-digit years 1500-2099 of text, in order of first
// appearance: not part of a longer number, not a measurement with a unit
// after it. The reference's regex says the same in Python.
func yearsIn(text string) []string {
	seen := map[string]bool{}
	var ys []string
	for _, m := range yearRE.FindAllStringIndex(text, -1) {
		y, rest := text[m[0]:m[1]], text[m[1]:]
		if unitAfter.MatchString(strings.ToLower(rest[:min(len(rest), 12)])) || strings.HasPrefix(rest, ".") && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9' {
			continue
		}
		if m[0] > 0 && (text[m[0]-1] == '.' || text[m[0]-1] == ',') {
			continue // 1.2000, 3,1500: part of another number
		}
		if !seen[y] {
			seen[y] = true
			ys = append(ys, y)
		}
	}
	return ys
}

func buildYears(c *bctx) ([]spec, error) {
	ys := yearsIn(c.text(0))
	if len(ys) < 2 {
		return nil, nil
	}
	sort.Strings(ys)
	return []spec{{
		params: "years",
		en:     []string{"Which years (1500 to 2099) are mentioned in this text? List all of them; a number with a unit after it, such as 1500 m, is not a year.", "Extract every year (four-digit years like 1999, from 1500 to 2099) that appears in the document; measurements such as 2000 km do not count."},
		zh:     []string{"这段文本中提到了哪些年份（1500 到 2099）？请全部列出；后面带单位的数字（如 1500 m）不算年份。", "请找出文档中出现的所有年份（如 1999 这样的四位数年份，1500 到 2099）；2000 km 这样的度量不算。"},
		steps:  []schemas.RefStep{readTextStep(c, 0), step("Find four-digit years with a regular expression, leaving out measurements (a unit after the number).", yearsPy)},
		answer: "The years mentioned are " + strings.Join(ys, ", ") + ".", answerZh: "文中提到的年份有：" + strings.Join(ys, "、") + "。",
		checks: []schemas.Check{answerHas(ys...), yearsExactly(ys), yearsRecomputed(c)},
	}}, nil
}

func buildLines(c *bctx) ([]spec, error) {
	n := 0
	for _, l := range strings.Split(c.text(0), "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return []spec{{
		params: "lines",
		en:     []string{"How many non-empty lines does this file have?", "Count the lines of the document, not counting blank ones."},
		zh:     []string{"这个文件有多少行非空行？", "统计文档的行数（不算空行）。"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("Count lines that are not blank.",
			"print(sum(1 for l in text.split('\\n') if l.strip()))")},
		answer: fmt.Sprintf("The file has %s.", plural(n, "non-empty line")), answerZh: fmt.Sprintf("文件共有 %d 行非空行。", n),
		checks: []schemas.Check{answerInt(n), recomputed(textSetup(c, 0), recomputedInt("sum(1 for l in text.split('\\n') if l.strip())"))},
	}}, nil
}

// sentences splits text as the reference does: whitespace collapsed, a
// sentence ending at a '.', '!' or '?' followed by a space (so 6.8 and
// example.com stay whole), the last one ending where the text ends.
func sentences(text string) []string {
	flat := strings.Join(strings.Fields(text), " ")
	var out []string
	start := 0
	for i := 0; i+1 < len(flat); i++ {
		if strings.IndexByte(".!?", flat[i]) >= 0 && flat[i+1] == ' ' {
			out = append(out, flat[start:i+1])
			start = i + 2
		}
	}
	if start < len(flat) {
		out = append(out, flat[start:])
	}
	return out
}

// abbreviationEnd matches a sentence that may end in an abbreviation (Mr.,
// e.g., a middle initial): there splitters disagree.
var abbreviationEnd = regexp.MustCompile(`(?i)(?:\b(?:mr|mrs|ms|dr|st|jr|sr|vs|etc|no|inc|co|ltd|fig|vol|e\.g|i\.e)|(?:^|[\s.])[a-z])\.$`)

func buildSentences(c *bctx) ([]spec, error) {
	fr := frequencies(words(c.text(0)), 5)
	ss := sentences(c.text(0))
	for _, w := range fr {
		if stopwords[w.word] {
			continue
		}
		re := regexp.MustCompile(`(?i)\b` + w.word + `\b`)
		var hits []string
		unclear := false
		for i, s := range ss {
			if re.MatchString(s) {
				hits = append(hits, s)
				unclear = unclear || abbreviationEnd.MatchString(s) || i > 0 && abbreviationEnd.MatchString(ss[i-1])
			}
		}
		if unclear || len(hits) < 3 || len(hits) > 15 {
			continue
		}
		return []spec{{
			params: "sentences:" + w.word,
			en: []string{fmt.Sprintf("Find every sentence that contains the word \"%s\" (any case) and save them to {OUT}.txt, one sentence per line.", w.word),
				fmt.Sprintf("Extract the sentences mentioning '%s' into {OUT}.txt (one per line). How many are there?", w.word)},
			zh: []string{fmt.Sprintf("请找出所有包含单词“%s”（不区分大小写）的句子，保存到 {OUT}.txt，每行一句。", w.word),
				fmt.Sprintf("把提到 %s 的句子提取到 {OUT}.txt（每行一句），一共有多少句？", w.word)},
			steps: []schemas.RefStep{readTextStep(c, 0), step("Split into sentences and keep those with the word.", fmt.Sprintf(
				"import re, os\nflat = ' '.join(text.split())\nsents = [s.strip() for s in re.split(r'(?<=[.!?])\\s+', flat) if s.strip()]\nhits = [s for s in sents if re.search(r'(?i)\\b%s\\b', s)]\nos.makedirs('./output', exist_ok=True)\nopen('{OUT}.txt', 'w').write('\\n'.join(hits) + '\\n')\nprint(len(hits))", w.word))},
			answer: fmt.Sprintf("%d sentences contain \"%s\"; they are saved to {OUT}.txt.", len(hits), w.word), answerZh: fmt.Sprintf("共有 %d 句包含“%s”，已保存到 {OUT}.txt。", len(hits), w.word),
			checks:  []schemas.Check{sentencesExactly(c, w.word)},
			outputs: []string{"{out}.txt"},
		}}, nil
	}
	return nil, nil
}

func buildFreqTable(c *bctx) ([]spec, error) {
	fr := frequencies(words(c.text(0)), 4)
	if len(fr) < 11 || fr[9].n == fr[10].n {
		return nil, nil
	}
	want := "{"
	for i, w := range fr[:10] {
		if i > 0 {
			want += ", "
		}
		want += fmt.Sprintf("%q: %d", w.word, w.n)
	}
	want += "}"
	return []spec{{
		params: "freqtable",
		en: []string{"Count word frequencies in this text (lower-case, words of at least 4 letters) and save the 10 most frequent words to {OUT}.csv with columns word and count.",
			"Make a frequency table of the top 10 words with 4+ letters (case-insensitive). Write it to {OUT}.csv (columns: word, count)."},
		zh: []string{"请统计文本的词频（转为小写，只统计至少 4 个字母的单词），把出现最多的 10 个单词保存到 {OUT}.csv，列名为 word 和 count。",
			"统计长度不少于 4 个字母的单词词频（不区分大小写），前 10 名写入 {OUT}.csv（列：word, count）。"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("Count and save the top ten.",
			"import re, os\nimport pandas as pd\nfrom collections import Counter\nwords = [w for w in re.findall(r'[a-z]+', text.lower()) if len(w) >= 4]\ntop = Counter(words).most_common(10)\nos.makedirs('./output', exist_ok=True)\npd.DataFrame(top, columns=['word', 'count']).to_csv('{OUT}.csv', index=False)\nprint(top)")},
		answer: fmt.Sprintf("The top 10 words are saved to {OUT}.csv; the most frequent is \"%s\" (%d).", fr[0].word, fr[0].n), answerZh: fmt.Sprintf("前 10 个高频词已保存到 {OUT}.csv，最常见的是“%s”（%d 次）。", fr[0].word, fr[0].n),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(10), ColumnsInclude: []string{"word", "count"}},
			pyCheck(`
df = read_table('{out}.csv')
got = dict(zip(df[find_column(df, 'word')].astype(str).str.lower(), df[find_column(df, 'count')]))
for w, n in %s.items():
    assert w in got, '{out}.csv lacks the word %%r' %% w
    assert int(got[w]) == n, '{out}.csv counts %%r %%s times, expected %%d' %% (w, got[w], n)
`, want),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildWordCloud(c *bctx) ([]spec, error) {
	if len(words(c.text(0))) < 50 {
		return nil, nil
	}
	return []spec{{
		params: "wordcloud",
		en:     []string{"Generate a word cloud from this text and save the image to {OUT}.png.", "Draw a word cloud of the document's words; save it as {OUT}.png."},
		zh:     []string{"请根据这段文本生成词云图，保存到 {OUT}.png。", "用文档中的词语画一张词云，存为 {OUT}.png。"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("Use the wordcloud package.",
			"import os\nfrom wordcloud import WordCloud\nos.makedirs('./output', exist_ok=True)\nWordCloud(width=800, height=400, background_color='white').generate(text).to_file('{OUT}.png')\nprint('saved')")},
		answer: "The word cloud is saved to {OUT}.png.", answerZh: "词云图已保存到 {OUT}.png。",
		checks: append(pngChecks(), pyCheck("chart_words('{out}.png', open(%s, encoding=%s).read())", py(c.dpath(0)), py(c.textEncoding(0)))), outputs: []string{"{out}.png"},
	}}, nil
}

func buildReplace(c *bctx) ([]spec, error) {
	fr := frequencies(words(c.text(0)), 5)
	for _, w := range fr {
		if stopwords[w.word] || w.n < 2 {
			continue
		}
		re := regexp.MustCompile(`\b` + w.word + `\b`)
		n := len(re.FindAllString(c.text(0), -1))
		if n < 2 {
			continue
		}
		to := "REPLACED"
		return []spec{{
			params: "replace:" + w.word,
			en: []string{fmt.Sprintf("Replace every occurrence of the word \"%s\" (exact, lower-case, whole word) with \"%s\" and save the new text to {OUT}.txt. How many replacements did you make?", w.word, to),
				fmt.Sprintf("In this document, swap the whole word '%s' for '%s' everywhere (case-sensitive) and write the result to {OUT}.txt; report the number of replacements.", w.word, to)},
			zh: []string{fmt.Sprintf("请把文本中所有的单词“%s”（区分大小写，完整单词）替换为“%s”，新文本保存到 {OUT}.txt，并告诉我替换了多少处。", w.word, to),
				fmt.Sprintf("将文档里的 %s（完整单词，区分大小写）全部换成 %s，结果写入 {OUT}.txt，共替换了几处？", w.word, to)},
			steps: []schemas.RefStep{readTextStep(c, 0), step("Substitute with word boundaries and count.", fmt.Sprintf(
				"import re, os\nnew, n = re.subn(r'\\b%s\\b', %s, text)\nos.makedirs('./output', exist_ok=True)\nopen('{OUT}.txt', 'w', encoding='utf-8').write(new)\nprint(n)", w.word, py(to)))},
			answer: fmt.Sprintf("Made %d replacements; the new text is in {OUT}.txt.", n), answerZh: fmt.Sprintf("共替换 %d 处，新文本已保存到 {OUT}.txt。", n),
			checks: []schemas.Check{pyCheck(`
import re
t = read_text('{out}.txt')
left = len(re.findall(r'\b%[1]s\b', t))
assert left == 0, '{out}.txt still has %%d occurrences of %[1]s' %% left
got = len(re.findall(r'\b%[2]s\b', t))
assert got >= %[3]d, '{out}.txt has %%d occurrences of %[2]s, expected %[3]d' %% got
`, w.word, to, n), answerInt(n), recomputed(textSetup(c, 0), recomputedInt(fmt.Sprintf("len(re.findall(r'\\b%s\\b', text))", w.word)))},
			outputs: []string{"{out}.txt"},
		}}, nil
	}
	return nil, nil
}

var mdHeading = regexp.MustCompile(`(?m)^##\s+(.+?)\s*$`)

func buildHeadings(c *bctx) ([]spec, error) {
	var hs []string
	for _, m := range mdHeading.FindAllStringSubmatch(c.text(0), -1) {
		hs = append(hs, m[1])
	}
	if len(hs) < 2 {
		return nil, nil
	}
	return []spec{{
		params: "headings",
		en:     []string{"List the section headings (the level-2, '##' headings) of this Markdown document.", "What are the second-level headings in this Markdown file?"},
		zh:     []string{"请列出这个 Markdown 文档中的二级标题（## 开头的标题）。", "这个 Markdown 文件有哪些二级标题？"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("Match lines that start with '## '.",
			"import re\nprint(re.findall(r'(?m)^##\\s+(.+?)\\s*$', text))")},
		answer: "The section headings are: " + strings.Join(hs, "; ") + ".", answerZh: "二级标题有：" + strings.Join(hs, "；") + "。",
		checks: []schemas.Check{headingsExactly(c), headingsRecomputed(c, hs)},
	}}, nil
}

// mdTable is the one pipe table of a Markdown text, header first, as the
// reference's code reads it (every line whose stripped form starts with
// "|", split on "|", separator rows left out), or nil when the text holds
// pipe lines that are not one table: two tables, a line that only starts
// with a pipe, rows of another width than the header, a blank header
// name, no separator row, or line breaks Python's splitlines sees and Go
// does not. Then "the table" would be ambiguous, or pandas would read it
// otherwise.
func mdTable(text string) [][]string {
	if strings.ContainsAny(text, "\r\v\f\x1c\x1d\x1e\x1f\u0085\u2028\u2029") {
		return nil
	}
	var rows [][]string
	first, last, sep := -1, -1, false
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "|") {
			continue
		}
		if first < 0 {
			first = i
		}
		if last >= 0 && i != last+1 {
			return nil // a second block of pipe lines
		}
		last = i
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			sep = sep || i == first+1
			continue
		}
		if !strings.HasSuffix(l, "|") || len(rows) > 0 && len(cells) != len(rows[0]) {
			return nil
		}
		rows = append(rows, cells)
	}
	if !sep || len(rows) == 0 || slices.Contains(rows[0], "") {
		return nil
	}
	return rows
}

func buildMDTable(c *bctx) ([]spec, error) {
	rows := mdTable(c.text(0))
	if len(rows) < 3 {
		return nil, nil
	}
	return []spec{{
		params: "mdtable",
		en:     []string{"Extract the table in this Markdown file into a CSV file, {OUT}.csv, keeping its header.", "Convert the Markdown table to CSV and save it as {OUT}.csv."},
		zh:     []string{"请把这个 Markdown 文件中的表格提取出来，保存为 CSV 文件 {OUT}.csv（保留表头）。", "将 Markdown 表格转换为 CSV，存为 {OUT}.csv。"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("Parse the pipe rows, skip the separator, save with pandas.",
			"import os\nimport pandas as pd\nrows = [[c.strip() for c in l.strip().strip('|').split('|')] for l in text.splitlines() if l.strip().startswith('|')]\nrows = [r for r in rows if ''.join(r).strip('-: ')]\ndf = pd.DataFrame(rows[1:], columns=rows[0])\nos.makedirs('./output', exist_ok=True)\ndf.to_csv('{OUT}.csv', index=False)\nprint(df)")},
		answer: fmt.Sprintf("The table (%d rows) is saved to {OUT}.csv.", len(rows)-1), answerZh: fmt.Sprintf("表格（%d 行）已保存到 {OUT}.csv。", len(rows)-1),
		checks: []schemas.Check{{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(rows) - 1), ColumnsInclude: rows[0]},
			// Every cell, as the reference's parse of the real input reads
			// back from a csv.
			pyCheck(`import io
import pandas as pd
%s
rows = [[c.strip() for c in l.strip().strip('|').split('|')] for l in text.splitlines() if l.strip().startswith('|')]
rows = [r for r in rows if ''.join(r).strip('-: ')]
want = pd.read_csv(io.StringIO(pd.DataFrame(rows[1:], columns=rows[0]).to_csv(index=False)))
same_table('{out}.csv', want)`, textSetup(c, 0))},
		outputs: []string{"{out}.csv"},
	}}, nil
}
