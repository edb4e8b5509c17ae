package template

import (
	"fmt"
	"html"
	"strings"

	"synth/schemas"
)

func init() {
	reg := func(name, group string, types []string, req []string, b func(*bctx) ([]spec, error), m func(*schemas.Task) *schemas.Reference) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryText, Subcategory: group, FileTypes: types, Requires: req},
			inputs: 1, build: b, mutate: m})
	}
	reg("pdf.page", GroupDocQA, []string{"pdf"}, nil, buildPDFPage, mutateEmptyFile)
	reg("pdf.pages", GroupDocQA, []string{"pdf"}, nil, buildPDFPages, mutateAnswer)
	reg("pdf.extract", GroupDocQA, []string{"pdf"}, nil, buildPDFExtract, mutateEmptyFile)
	reg("pdf.wordcount", GroupTextMining, []string{"pdf"}, nil, buildPDFWordCount, mutateAnswer)
	reg("docx.paragraphs", GroupDocQA, []string{"docx"}, []string{"docx"}, buildDocxParagraphs, mutateAnswer)
	reg("docx.totext", GroupDocQA, []string{"docx"}, []string{"docx"}, buildDocxText, mutateEmptyFile)
	reg("html.links", GroupDocQA, []string{"html"}, nil, buildHTMLLinks, mutateEmptyFile)
	reg("html.title", GroupDocQA, []string{"html"}, nil, buildHTMLTitle, mutateWrongGroup)
}

// pdfSetup is pdfStep's read without its prints: pages, for recomputed.
func pdfSetup(c *bctx) string {
	return fmt.Sprintf("from pypdf import PdfReader\npages = [p.extract_text() or '' for p in PdfReader(%s).pages]", py(c.dpath(0)))
}

func pdfStep(c *bctx) schemas.RefStep {
	return step("Read the PDF with pypdf.", fmt.Sprintf("from pypdf import PdfReader\nreader = PdfReader(%s)\npages = [p.extract_text() or '' for p in reader.pages]\nprint(len(pages))\nprint(pages[0][:300])", py(c.dpath(0))))
}

func buildPDFPage(c *bctx) ([]spec, error) {
	pages := c.pdfPages(0)
	if len(pages) < 2 {
		return nil, nil
	}
	n := 2 + c.rng.IntN(len(pages)-1)
	if n > len(pages) {
		n = len(pages)
	}
	want := longWords(pages[n-1], 8, 3)
	// Words only on other pages must not be there.
	var not []string
	for i, p := range pages {
		if i == n-1 {
			continue
		}
		for _, w := range longWords(p, 9, 12) {
			if !strings.Contains(strings.ToLower(pages[n-1]), w) && len(not) < 2 {
				not = append(not, w)
			}
		}
	}
	if len(want) < 2 || len(not) == 0 {
		return nil, nil
	}
	return []spec{{
		params: fmt.Sprintf("page:%d", n),
		en:     []string{fmt.Sprintf("Extract the text of page %d of this PDF and save it to {OUT}.txt.", n), fmt.Sprintf("I only need page %d: write its text to {OUT}.txt.", n)},
		zh:     []string{fmt.Sprintf("请提取这个 PDF 第 %d 页的文字，保存到 {OUT}.txt。", n), fmt.Sprintf("只要第 %d 页：把这一页的文字写入 {OUT}.txt。", n)},
		steps: []schemas.RefStep{pdfStep(c), step("Pages are numbered from 1; the list from 0.",
			fmt.Sprintf("import os\nos.makedirs('./output', exist_ok=True)\nopen('{OUT}.txt', 'w', encoding='utf-8').write(pages[%d])\nprint(pages[%d][:200])", n-1, n-1))},
		answer: fmt.Sprintf("The text of page %d is saved to {OUT}.txt.", n), answerZh: fmt.Sprintf("第 %d 页的文字已保存到 {OUT}.txt。", n),
		checks: []schemas.Check{
			plainText("{out}.txt"), {Kind: schemas.CheckText, Path: "{out}.txt", ContainsAll: want},
			pyCheck("t = read_text('{out}.txt').lower()\nextra = [w for w in %s if w in t]\nassert not extra, '{out}.txt has text from other pages (%%s)' %% ', '.join(extra)", pyList(not)),
		},
		outputs: []string{"{out}.txt"},
	}}, nil
}

func buildPDFPages(c *bctx) ([]spec, error) {
	n := len(c.pdfPages(0))
	return []spec{{
		params: "pages",
		en:     []string{"How many pages does this PDF have?", "Tell me the page count of the PDF document."},
		zh:     []string{"这个 PDF 有多少页？", "请告诉我这份 PDF 文档的页数。"},
		steps:  []schemas.RefStep{pdfStep(c)},
		answer: fmt.Sprintf("The PDF has %s.", plural(n, "page")), answerZh: fmt.Sprintf("该 PDF 共有 %d 页。", n),
		checks: []schemas.Check{answerInt(n), recomputed(pdfSetup(c), recomputedInt("len(pages)"))},
	}}, nil
}

func buildPDFExtract(c *bctx) ([]spec, error) {
	var want []string
	for _, p := range c.pdfPages(0) {
		want = append(want, longWords(p, 9, 2)...)
	}
	if len(want) < 2 {
		return nil, nil
	}
	return []spec{{
		params: "extract",
		en:     []string{"Extract all the text from this PDF and save it to {OUT}.txt.", "Pull the text out of every page of the PDF into a plain text file, {OUT}.txt."},
		zh:     []string{"请提取这个 PDF 的全部文字，保存到 {OUT}.txt。", "把 PDF 每一页的文字导出到纯文本文件 {OUT}.txt。"},
		steps: []schemas.RefStep{pdfStep(c), step("Join the pages and save.",
			"import os\nos.makedirs('./output', exist_ok=True)\nopen('{OUT}.txt', 'w', encoding='utf-8').write('\\n\\n'.join(pages))\nprint(sum(len(p) for p in pages))")},
		answer: "The text of the PDF is saved to {OUT}.txt.", answerZh: "PDF 的文字已保存到 {OUT}.txt。",
		checks:  []schemas.Check{plainText("{out}.txt"), pdfTextCovered(c, "{out}.txt")},
		outputs: []string{"{out}.txt"},
	}}, nil
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
func buildPDFWordCount(c *bctx) ([]spec, error) {
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
			checks: []schemas.Check{answerInt(n), recomputed(pdfSetup(c)+"\nimport unicodedata\ntext = ''.join(unicodedata.normalize('NFKC', '\\n'.join(pages)).lower().split())",
				recomputedInt(fmt.Sprintf("text.count(%s)", py(w.word))))},
		}}, nil
	}
	return nil, nil
}

func docxStep(c *bctx) schemas.RefStep {
	return step("Open the document with python-docx.", fmt.Sprintf("import docx\ndoc = docx.Document(%s)\nparas = [p.text for p in doc.paragraphs]\nprint(len(paras))\nprint(paras[:3])", py(c.dpath(0))))
}

func buildDocxParagraphs(c *bctx) ([]spec, error) {
	n := 0
	for _, p := range c.docxParagraphs(0) {
		if strings.TrimSpace(p) != "" {
			n++
		}
	}
	if n == 0 {
		return nil, nil
	}
	return []spec{{
		params: "paragraphs",
		en:     []string{"How many non-empty paragraphs does this Word document contain (the title counts as one)?", "Count the paragraphs with text in the .docx file, including the title."},
		zh:     []string{"这个 Word 文档有多少个非空段落（标题也算一段）？", "统计 docx 文件中有文字的段落数（包括标题）。"},
		steps:  []schemas.RefStep{docxStep(c), step("Count paragraphs with text.", "print(sum(1 for p in paras if p.strip()))")},
		answer: fmt.Sprintf("The document has %s.", plural(n, "non-empty paragraph")), answerZh: fmt.Sprintf("文档共有 %d 个非空段落。", n),
		checks: []schemas.Check{answerInt(n), recomputed(fmt.Sprintf("import docx\nparas = [p.text for p in docx.Document(%s).paragraphs]", py(c.dpath(0))),
			recomputedInt("sum(1 for p in paras if p.strip())"))},
	}}, nil
}

func buildDocxText(c *bctx) ([]spec, error) {
	ps := c.docxParagraphs(0)
	want := longWords(strings.Join(ps, "\n"), 9, 4)
	if len(want) < 2 {
		return nil, nil
	}
	return []spec{{
		params: "totext",
		en:     []string{"Convert this Word document to plain text: save all its paragraphs to {OUT}.txt, one per line.", "Extract the text of the .docx into {OUT}.txt (one paragraph per line)."},
		zh:     []string{"请把这个 Word 文档转换为纯文本：将所有段落保存到 {OUT}.txt，每段一行。", "提取 docx 的文字到 {OUT}.txt（每段一行）。"},
		steps: []schemas.RefStep{docxStep(c), step("Write the paragraphs out.",
			"import os\nos.makedirs('./output', exist_ok=True)\nopen('{OUT}.txt', 'w', encoding='utf-8').write('\\n'.join(paras) + '\\n')\nprint(len(paras))")},
		answer: "The text is saved to {OUT}.txt.", answerZh: "文字已保存到 {OUT}.txt。",
		checks:  []schemas.Check{plainText("{out}.txt"), textWordsCheck("{out}.txt", want), docxParagraphsCheck(c)},
		outputs: []string{"{out}.txt"},
	}}, nil
}

// docxParagraphsCheck requires every paragraph with text of the real
// input, as python-docx reads it in the verification sandbox, in
// {out}.txt, with spaces and line breaks ignored (as textWordsCheck): a
// text that lost a paragraph fails, whatever words it kept.
func docxParagraphsCheck(c *bctx) schemas.Check {
	return pyCheck(`import docx, unicodedata
def flat(s):
    return ''.join(unicodedata.normalize('NFKC', s).lower().split())
text = flat(read_text('{out}.txt'))
paras = [flat(p.text) for p in docx.Document(%s).paragraphs if p.text.strip()]
missing = [p for p in paras if p not in text]
assert not missing, '{out}.txt lacks %%d of the %%d paragraphs of the document, e.g. %%r' %% (len(missing), len(paras), missing[0][:60])`, py(c.dpath(0)))
}

func buildHTMLLinks(c *bctx) ([]spec, error) {
	ls := htmlLinks(c.text(0))
	if len(ls) < 2 {
		return nil, nil
	}
	var hrefs []string
	for _, l := range ls {
		// The CSV read back gives pandas' missing value for an empty href
		// (or "NA"), which the check reads as "".
		h := l.href
		if naValues[h] {
			h = ""
		}
		hrefs = append(hrefs, h)
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
			pyCheck("df = read_table('{out}.csv')\ngot = set(df[find_column(df, 'href')].fillna('').astype(str))\nmissing = [h for h in %s if h not in got]\nassert not missing, '{out}.csv lacks the links %%s' %% missing", pyList(hrefs)),
			linksCheck(c),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}

func buildHTMLTitle(c *bctx) ([]spec, error) {
	m := htmlTitle.FindStringSubmatch(htmlComment.ReplaceAllString(c.text(0), ""))
	ls := htmlLinks(c.text(0))
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return nil, nil
	}
	title := strings.Join(strings.Fields(html.UnescapeString(m[1])), " ")
	return []spec{{
		params: "title",
		en:     []string{"What is the title of this web page, and how many links (<a> elements with an href, not counting any inside HTML comments) does it contain?", "Tell me the page's <title> and the number of hyperlinks on it (<a href> elements; commented-out ones do not count)."},
		zh:     []string{"这个网页的标题是什么？页面里有多少个链接（带 href 的 <a> 元素，HTML 注释里的不算）？", "请告诉我网页的 <title> 以及页面中超链接（<a href> 元素，注释掉的不算）的数量。"},
		steps:  []schemas.RefStep{htmlParseStep(c)},
		answer: fmt.Sprintf("The title is \"%s\" and the page has %d links.", title, len(ls)), answerZh: fmt.Sprintf("网页标题是“%s”，共有 %d 个链接。", title, len(ls)),
		checks: []schemas.Check{answerHas(title), answerInt(len(ls)), recomputed(strings.TrimSuffix(htmlParseStep(c).Code, "print(p.title, len(p.links))"), recomputedInt("len(p.links)"))},
	}}, nil
}
