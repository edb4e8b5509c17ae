package template

import (
	"fmt"
	"html"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"synth/schemas"
)

func init() {
	reg := func(name, group string, types []string, req []string, b func(*bctx) []spec, m func(*schemas.Task) *schemas.Reference) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryText, Subcategory: group, FileTypes: types, Requires: req},
			inputs: 1, build: b, mutate: m})
	}
	reg("text.years", GroupDocQA, textTypes, nil, buildYears, mutateWrongGroup)
	reg("text.lines", GroupTextMining, textTypes, nil, buildLines, mutateAnswer)
	reg("text.sentences", GroupTextMining, []string{"txt"}, nil, buildSentences, mutateEmptyFile)
	reg("text.freqtable", GroupTextMining, textTypes, nil, buildFreqTable, mutateEmptyFile)
	reg("text.wordcloud", GroupTextMining, textTypes, []string{"wordcloud"}, buildWordCloud, mutateBlankImage)
	reg("text.replace", GroupTextMining, textTypes, nil, buildReplace, mutateCopyInput)
	reg("md.headings", GroupDocQA, []string{"md"}, nil, buildHeadings, mutateWrongGroup)
	reg("md.table", GroupDocQA, []string{"md"}, nil, buildMDTable, mutateEmptyFile)
	reg("pdf.pages", GroupDocQA, []string{"pdf"}, nil, buildPDFPages, mutateAnswer)
	reg("pdf.extract", GroupDocQA, []string{"pdf"}, nil, buildPDFExtract, mutateEmptyFile)
	reg("pdf.wordcount", GroupTextMining, []string{"pdf"}, nil, buildPDFWordCount, mutateAnswer)
	reg("docx.paragraphs", GroupDocQA, []string{"docx"}, []string{"docx"}, buildDocxParagraphs, mutateAnswer)
	reg("docx.totext", GroupDocQA, []string{"docx"}, []string{"docx"}, buildDocxText, mutateEmptyFile)
	reg("html.links", GroupDocQA, []string{"html"}, nil, buildHTMLLinks, mutateEmptyFile)
	reg("html.title", GroupDocQA, []string{"html"}, nil, buildHTMLTitle, mutateWrongGroup)
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

// yearsPy is yearsIn in Python, over text.
const yearsPy = `import re
units = r'(?:(?:m|km|cm|mm|metres|meters|miles|mi|yards|yd|feet|ft|kg|g|lb|lbs|s|sec|seconds|min|minutes|h|hours|ml|l|kcal|cal|w|kw|mb|gb|px)\b|%)'
# re.A: a year is a run of ASCII digits between non-ASCII-word characters (2019年 holds 2019)
years = sorted(set(m.group(1) for m in re.finditer(r'(?<![.,\d])\b(1[5-9]\d\d|20\d\d)\b(?!\.\d)', text, re.A)
                   if not re.match(r'[ \t]*' + units, text[m.end():m.end() + 12].lower(), re.A)))
print(years)`

func buildYears(c *bctx) []spec {
	ys := yearsIn(c.text(0))
	if len(ys) < 2 {
		return nil
	}
	sort.Strings(ys)
	return []spec{{
		params: "years",
		en:     []string{"Which years (1500 to 2099) are mentioned in this text? List all of them; a number with a unit after it, such as 1500 m, is not a year.", "Extract every year (four-digit years like 1999, from 1500 to 2099) that appears in the document; measurements such as 2000 km do not count."},
		zh:     []string{"这段文本中提到了哪些年份（1500 到 2099）？请全部列出；后面带单位的数字（如 1500 m）不算年份。", "请找出文档中出现的所有年份（如 1999 这样的四位数年份，1500 到 2099）；2000 km 这样的度量不算。"},
		steps:  []schemas.RefStep{readTextStep(c, 0), step("Find four-digit years with a regular expression, leaving out measurements (a unit after the number).", yearsPy)},
		answer: "The years mentioned are " + strings.Join(ys, ", ") + ".", answerZh: "文中提到的年份有：" + strings.Join(ys, "、") + "。",
		checks: []schemas.Check{answerHas(ys...)},
	}}
}

func buildLines(c *bctx) []spec {
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
		answer: fmt.Sprintf("The file has %d non-empty lines.", n), answerZh: fmt.Sprintf("文件共有 %d 行非空行。", n),
		checks: []schemas.Check{answerInt(n)},
	}}
}

var sentenceRE = regexp.MustCompile(`[^.!?]+[.!?]`)

func sentences(text string) []string {
	var out []string
	for _, s := range sentenceRE.FindAllString(strings.Join(strings.Fields(text), " "), -1) {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

func buildSentences(c *bctx) []spec {
	fr := frequencies(words(c.text(0)), 5)
	ss := sentences(c.text(0))
	for _, w := range fr {
		if stopwords[w.word] {
			continue
		}
		re := regexp.MustCompile(`(?i)\b` + w.word + `\b`)
		var hits []string
		for _, s := range ss {
			if re.MatchString(s) {
				hits = append(hits, s)
			}
		}
		if len(hits) < 3 || len(hits) > 15 {
			continue
		}
		return []spec{{
			params: "sentences:" + w.word,
			en: []string{fmt.Sprintf("Find every sentence that contains the word \"%s\" (any case) and save them to {OUT}.txt, one sentence per line.", w.word),
				fmt.Sprintf("Extract the sentences mentioning '%s' into {OUT}.txt (one per line). How many are there?", w.word)},
			zh: []string{fmt.Sprintf("请找出所有包含单词“%s”（不区分大小写）的句子，保存到 {OUT}.txt，每行一句。", w.word),
				fmt.Sprintf("把提到 %s 的句子提取到 {OUT}.txt（每行一句），一共有多少句？", w.word)},
			steps: []schemas.RefStep{readTextStep(c, 0), step("Split into sentences and keep those with the word.", fmt.Sprintf(
				"import re, os\nflat = ' '.join(text.split())\nsents = [s.strip() for s in re.findall(r'[^.!?]+[.!?]', flat)]\nhits = [s for s in sents if re.search(r'(?i)\\b%s\\b', s)]\nos.makedirs('./output', exist_ok=True)\nopen('{OUT}.txt', 'w').write('\\n'.join(hits) + '\\n')\nprint(len(hits))", w.word))},
			answer: fmt.Sprintf("%d sentences contain \"%s\"; they are saved to {OUT}.txt.", len(hits), w.word), answerZh: fmt.Sprintf("共有 %d 句包含“%s”，已保存到 {OUT}.txt。", len(hits), w.word),
			checks: []schemas.Check{pyCheck(`
import re
lines = [l for l in read_text('{out}.txt').split('\n') if l.strip()]
assert len(lines) == %[1]d, '{out}.txt has %%d sentences, expected %[1]d' %% len(lines)
bad = [l for l in lines if not re.search(r'(?i)\b%[2]s\b', l)]
assert not bad, '{out}.txt has lines without %[2]s: %%r' %% bad[:2]
`, len(hits), w.word)},
			outputs: []string{"{out}.txt"},
		}}
	}
	return nil
}

func buildFreqTable(c *bctx) []spec {
	fr := frequencies(words(c.text(0)), 4)
	if len(fr) < 11 || fr[9].n == fr[10].n {
		return nil
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
	}}
}

func buildWordCloud(c *bctx) []spec {
	if len(words(c.text(0))) < 50 {
		return nil
	}
	return []spec{{
		params: "wordcloud",
		en:     []string{"Generate a word cloud from this text and save the image to {OUT}.png.", "Draw a word cloud of the document's words; save it as {OUT}.png."},
		zh:     []string{"请根据这段文本生成词云图，保存到 {OUT}.png。", "用文档中的词语画一张词云，存为 {OUT}.png。"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("Use the wordcloud package.",
			"import os\nfrom wordcloud import WordCloud\nos.makedirs('./output', exist_ok=True)\nWordCloud(width=800, height=400, background_color='white').generate(text).to_file('{OUT}.png')\nprint('saved')")},
		answer: "The word cloud is saved to {OUT}.png.", answerZh: "词云图已保存到 {OUT}.png。",
		checks: chartChecks(), outputs: []string{"{out}.png"},
	}}
}

func buildReplace(c *bctx) []spec {
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
`, w.word, to, n), answerInt(n)},
			outputs: []string{"{out}.txt"},
		}}
	}
	return nil
}

var mdHeading = regexp.MustCompile(`(?m)^##\s+(.+?)\s*$`)

func buildHeadings(c *bctx) []spec {
	var hs []string
	for _, m := range mdHeading.FindAllStringSubmatch(c.text(0), -1) {
		hs = append(hs, m[1])
	}
	if len(hs) < 2 {
		return nil
	}
	return []spec{{
		params: "headings",
		en:     []string{"List the section headings (the level-2, '##' headings) of this Markdown document.", "What are the second-level headings in this Markdown file?"},
		zh:     []string{"请列出这个 Markdown 文档中的二级标题（## 开头的标题）。", "这个 Markdown 文件有哪些二级标题？"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("Match lines that start with '## '.",
			"import re\nprint(re.findall(r'(?m)^##\\s+(.+?)\\s*$', text))")},
		answer: "The section headings are: " + strings.Join(hs, "; ") + ".", answerZh: "二级标题有：" + strings.Join(hs, "；") + "。",
		checks: []schemas.Check{answerHas(hs...)},
	}}
}

var mdRow = regexp.MustCompile(`(?m)^\|(.+)\|\s*$`)

func buildMDTable(c *bctx) []spec {
	var rows [][]string
	for _, m := range mdRow.FindAllStringSubmatch(c.text(0), -1) {
		cells := strings.Split(m[1], "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			continue
		}
		rows = append(rows, cells)
	}
	if len(rows) < 3 {
		return nil
	}
	return []spec{{
		params: "mdtable",
		en:     []string{"Extract the table in this Markdown file into a CSV file, {OUT}.csv, keeping its header.", "Convert the Markdown table to CSV and save it as {OUT}.csv."},
		zh:     []string{"请把这个 Markdown 文件中的表格提取出来，保存为 CSV 文件 {OUT}.csv（保留表头）。", "将 Markdown 表格转换为 CSV，存为 {OUT}.csv。"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("Parse the pipe rows, skip the separator, save with pandas.",
			"import os\nimport pandas as pd\nrows = [[c.strip() for c in l.strip().strip('|').split('|')] for l in text.splitlines() if l.strip().startswith('|')]\nrows = [r for r in rows if ''.join(r).strip('-: ')]\ndf = pd.DataFrame(rows[1:], columns=rows[0])\nos.makedirs('./output', exist_ok=True)\ndf.to_csv('{OUT}.csv', index=False)\nprint(df)")},
		answer: fmt.Sprintf("The table (%d rows) is saved to {OUT}.csv.", len(rows)-1), answerZh: fmt.Sprintf("表格（%d 行）已保存到 {OUT}.csv。", len(rows)-1),
		checks:  []schemas.Check{{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(rows) - 1), ColumnsInclude: rows[0]}},
		outputs: []string{"{out}.csv"},
	}}
}

func pdfStep(c *bctx) schemas.RefStep {
	return step("Read the PDF with pypdf.", fmt.Sprintf("from pypdf import PdfReader\nreader = PdfReader(%s)\npages = [p.extract_text() or '' for p in reader.pages]\nprint(len(pages))\nprint(pages[0][:300])", py(c.dpath(0))))
}

func buildPDFPages(c *bctx) []spec {
	n := len(c.pdfPages(0))
	return []spec{{
		params: "pages",
		en:     []string{"How many pages does this PDF have?", "Tell me the page count of the PDF document."},
		zh:     []string{"这个 PDF 有多少页？", "请告诉我这份 PDF 文档的页数。"},
		steps:  []schemas.RefStep{pdfStep(c)},
		answer: fmt.Sprintf("The PDF has %d pages.", n), answerZh: fmt.Sprintf("该 PDF 共有 %d 页。", n),
		checks: []schemas.Check{answerInt(n)},
	}}
}

func buildPDFExtract(c *bctx) []spec {
	var want []string
	for _, p := range c.pdfPages(0) {
		want = append(want, longWords(p, 9, 2)...)
	}
	if len(want) < 2 {
		return nil
	}
	return []spec{{
		params: "extract",
		en:     []string{"Extract all the text from this PDF and save it to {OUT}.txt.", "Pull the text out of every page of the PDF into a plain text file, {OUT}.txt."},
		zh:     []string{"请提取这个 PDF 的全部文字，保存到 {OUT}.txt。", "把 PDF 每一页的文字导出到纯文本文件 {OUT}.txt。"},
		steps: []schemas.RefStep{pdfStep(c), step("Join the pages and save.",
			"import os\nos.makedirs('./output', exist_ok=True)\nopen('{OUT}.txt', 'w', encoding='utf-8').write('\\n\\n'.join(pages))\nprint(sum(len(p) for p in pages))")},
		answer: "The text of the PDF is saved to {OUT}.txt.", answerZh: "PDF 的文字已保存到 {OUT}.txt。",
		checks:  []schemas.Check{plainText("{out}.txt"), textWordsCheck("{out}.txt", want)},
		outputs: []string{"{out}.txt"},
	}}
}

// textWordsCheck requires the text file at path to hold each of words with
// spaces and line breaks ignored on both sides, ligatures (ﬁ) read as
// their letters: a PDF's text layer places words rather than spaces, so
// readers differ on where the spaces go ("Lorem ipsum" or "Loremipsum"),
// never on the letters; a DOCX may split a word across runs.
func textWordsCheck(path string, words []string) schemas.Check {
	var want []string
	for _, w := range words {
		want = append(want, strings.Join(strings.Fields(strings.ToLower(ligatures.Replace(w))), ""))
	}
	return pyCheck(`import unicodedata
text = ''.join(unicodedata.normalize('NFKC', read_text(%[1]s)).lower().split())
missing = [w for w in %[2]s if w not in text]
assert not missing, '%[3]s lacks %%s (spaces and line breaks ignored)' %% missing`, py(path), pyList(want), path)
}

// ligatures spells out the ligatures a PDF's text may hold.
var ligatures = strings.NewReplacer("\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st")

// buildPDFWordCount asks how often a word's letters occur in a PDF's text,
// with spaces and line breaks ignored: PDF readers agree on a page's
// letters but not on where its spaces go (pypdf may read "Loremipsum"
// where another reader reads "Lorem ipsum"), so the query states that
// convention and the count does not depend on the reader.
func buildPDFWordCount(c *bctx) []spec {
	text := strings.Join(c.pdfPages(0), "\n")
	flat := strings.Join(strings.Fields(strings.ToLower(ligatures.Replace(text))), "")
	for _, w := range frequencies(words(text), 6) {
		if stopwords[w.word] || w.n < 2 || len(w.word) > 14 {
			continue
		}
		n := strings.Count(flat, w.word)
		return []spec{{
			params: "wordcount:" + w.word,
			en: []string{fmt.Sprintf("How many times do the letters \"%s\" occur in this PDF's text, ignoring case, spaces and line breaks?", w.word),
				fmt.Sprintf("Count the occurrences of '%s' across all pages of the PDF, ignoring case and with all whitespace removed from the text first.", w.word)},
			zh: []string{fmt.Sprintf("忽略大小写、空格和换行，字母串“%s”在这个 PDF 的文字中出现了多少次？", w.word),
				fmt.Sprintf("先去掉 PDF 所有页面文字中的空白，再统计 %s 出现的次数（忽略大小写）。", w.word)},
			steps: []schemas.RefStep{pdfStep(c), step("Join the pages, drop all whitespace and count, ignoring case.",
				fmt.Sprintf("import unicodedata\ntext = ''.join(unicodedata.normalize('NFKC', '\\n'.join(pages)).lower().split())\nprint(text.count(%s))", py(w.word)))},
			answer: fmt.Sprintf("\"%s\" occurs %d times.", w.word, n), answerZh: fmt.Sprintf("“%s”共出现 %d 次。", w.word, n),
			checks: []schemas.Check{answerInt(n)},
		}}
	}
	return nil
}

func docxStep(c *bctx) schemas.RefStep {
	return step("Open the document with python-docx.", fmt.Sprintf("import docx\ndoc = docx.Document(%s)\nparas = [p.text for p in doc.paragraphs]\nprint(len(paras))\nprint(paras[:3])", py(c.dpath(0))))
}

func buildDocxParagraphs(c *bctx) []spec {
	n := 0
	for _, p := range c.docxParagraphs(0) {
		if strings.TrimSpace(p) != "" {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return []spec{{
		params: "paragraphs",
		en:     []string{"How many non-empty paragraphs does this Word document contain (the title counts as one)?", "Count the paragraphs with text in the .docx file, including the title."},
		zh:     []string{"这个 Word 文档有多少个非空段落（标题也算一段）？", "统计 docx 文件中有文字的段落数（包括标题）。"},
		steps:  []schemas.RefStep{docxStep(c), step("Count paragraphs with text.", "print(sum(1 for p in paras if p.strip()))")},
		answer: fmt.Sprintf("The document has %d non-empty paragraphs.", n), answerZh: fmt.Sprintf("文档共有 %d 个非空段落。", n),
		checks: []schemas.Check{answerInt(n)},
	}}
}

func buildDocxText(c *bctx) []spec {
	ps := c.docxParagraphs(0)
	want := longWords(strings.Join(ps, "\n"), 9, 4)
	if len(want) < 2 {
		return nil
	}
	return []spec{{
		params: "totext",
		en:     []string{"Convert this Word document to plain text: save all its paragraphs to {OUT}.txt, one per line.", "Extract the text of the .docx into {OUT}.txt (one paragraph per line)."},
		zh:     []string{"请把这个 Word 文档转换为纯文本：将所有段落保存到 {OUT}.txt，每段一行。", "提取 docx 的文字到 {OUT}.txt（每段一行）。"},
		steps: []schemas.RefStep{docxStep(c), step("Write the paragraphs out.",
			"import os\nos.makedirs('./output', exist_ok=True)\nopen('{OUT}.txt', 'w', encoding='utf-8').write('\\n'.join(paras) + '\\n')\nprint(len(paras))")},
		answer: "The text is saved to {OUT}.txt.", answerZh: "文字已保存到 {OUT}.txt。",
		checks:  []schemas.Check{plainText("{out}.txt"), textWordsCheck("{out}.txt", want)},
		outputs: []string{"{out}.txt"},
	}}
}

func htmlParseStep(c *bctx) schemas.RefStep {
	return step("Parse the page with the standard library's HTMLParser.", fmt.Sprintf(`from html.parser import HTMLParser
class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.href, self.title, self.in_title = [], None, '', False
    def handle_starttag(self, tag, attrs):
        if tag == 'a':
            self.href, self.text = dict(attrs).get('href'), ''
        self.in_title = tag == 'title'
    def handle_endtag(self, tag):
        if tag == 'a' and self.href is not None:
            self.links.append((' '.join(self.text.split()), self.href))
            self.href = None
        if tag == 'title':
            self.in_title = False
    def handle_data(self, data):
        if self.href is not None:
            self.text += data
        if self.in_title:
            self.title += data
p = Links()
p.feed(open(%s, encoding='utf-8').read())
print(p.title, len(p.links))`, py(c.dpath(0))))
}

func buildHTMLLinks(c *bctx) []spec {
	ls := htmlLinks(c.text(0))
	if len(ls) < 2 {
		return nil
	}
	var hrefs []string
	for _, l := range ls {
		hrefs = append(hrefs, l.href)
	}
	return []spec{{
		params: "links",
		en:     []string{"Extract every hyperlink (each <a> element with an href; links inside HTML comments do not count) from this web page into {OUT}.csv with two columns, text and href.", "List all the links on the page (link text and URL of each <a href> element, not those commented out) and save them as {OUT}.csv with columns text, href."},
		zh:     []string{"请提取这个网页中的所有超链接（带 href 的 <a> 元素，HTML 注释里的链接不算），保存到 {OUT}.csv，包含 text 和 href 两列。", "列出页面上的全部链接（每个 <a href> 元素的文字和地址，注释掉的不算），存为 {OUT}.csv，列名为 text、href。"},
		steps: []schemas.RefStep{htmlParseStep(c), step("Save the links.",
			"import os\nimport pandas as pd\nos.makedirs('./output', exist_ok=True)\npd.DataFrame(p.links, columns=['text', 'href']).to_csv('{OUT}.csv', index=False)\nprint(p.links)")},
		answer: fmt.Sprintf("Found %d links; saved to {OUT}.csv.", len(ls)), answerZh: fmt.Sprintf("共找到 %d 个链接，已保存到 {OUT}.csv。", len(ls)),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(len(ls)), ColumnsInclude: []string{"text", "href"}},
			pyCheck("df = read_table('{out}.csv')\ngot = set(df[find_column(df, 'href')].astype(str))\nmissing = [h for h in %s if h not in got]\nassert not missing, '{out}.csv lacks the links %%s' %% missing", pyList(hrefs)),
		},
		outputs: []string{"{out}.csv"},
	}}
}

func buildHTMLTitle(c *bctx) []spec {
	m := htmlTitle.FindStringSubmatch(htmlComment.ReplaceAllString(c.text(0), ""))
	ls := htmlLinks(c.text(0))
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return nil
	}
	title := strings.Join(strings.Fields(html.UnescapeString(m[1])), " ")
	return []spec{{
		params: "title",
		en:     []string{"What is the title of this web page, and how many links (<a> elements with an href, not counting any inside HTML comments) does it contain?", "Tell me the page's <title> and the number of hyperlinks on it (<a href> elements; commented-out ones do not count)."},
		zh:     []string{"这个网页的标题是什么？页面里有多少个链接（带 href 的 <a> 元素，HTML 注释里的不算）？", "请告诉我网页的 <title> 以及页面中超链接（<a href> 元素，注释掉的不算）的数量。"},
		steps:  []schemas.RefStep{htmlParseStep(c)},
		answer: fmt.Sprintf("The title is \"%s\" and the page has %d links.", title, len(ls)), answerZh: fmt.Sprintf("网页标题是“%s”，共有 %d 个链接。", title, len(ls)),
		checks: []schemas.Check{answerHas(title), answerInt(len(ls))},
	}}
}

var _ = strconv.Itoa
