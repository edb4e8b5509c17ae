package template

import (
	"fmt"
	"strings"

	"synth/schemas"
)

func init() {
	register(&tmpl{Info: Info{Name: "pdf.page", Version: 1, Category: schemas.CategoryText, Subcategory: GroupDocQA, FileTypes: []string{"pdf"}},
		inputs: 1, build: buildPDFPage, mutate: mutateEmptyFile})
	register(&tmpl{Info: Info{Name: "text.summary", Version: 1, Category: schemas.CategoryText, Subcategory: GroupTextMining, FileTypes: textTypes},
		inputs: 1, build: buildTextSummary, mutate: mutateAnswer})
	register(&tmpl{Info: Info{Name: "image.concat", Version: 1, Category: schemas.CategoryMedia, Subcategory: GroupImage, FileTypes: imageTypes},
		inputs: 2, build: buildConcat2, mutate: mutateCopyInput})
}

func buildPDFPage(c *bctx) []spec {
	pages := c.pdfPages(0)
	if len(pages) < 2 {
		return nil
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
		return nil
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
	}}
}

func buildTextSummary(c *bctx) []spec {
	text := c.text(0)
	nw := len(strings.Fields(text))
	paras := 0
	for _, block := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if strings.TrimSpace(block) != "" {
			paras++
		}
	}
	if nw < 20 || paras < 2 {
		return nil
	}
	return []spec{{
		params: "summary",
		en: []string{"Give me a quick profile of this text: how many words (whitespace-separated) and how many paragraphs (blocks separated by blank lines) does it have?",
			"Count the words (split on whitespace) and the paragraphs (separated by empty lines) in the document."},
		zh: []string{"请简单统计一下这段文本：按空白分隔有多少个词？按空行分隔有多少个段落？", "统计文档的词数（按空白切分）和段落数（以空行分隔）。"},
		steps: []schemas.RefStep{readTextStep(c, 0), step("split() for words; blank-line blocks for paragraphs.",
			"words = len(text.split())\nparas = len([b for b in text.replace('\\r\\n', '\\n').split('\\n\\n') if b.strip()])\nprint(words, paras)")},
		answer: fmt.Sprintf("The text has %d words in %d paragraphs.", nw, paras), answerZh: fmt.Sprintf("文本共有 %d 个词，%d 个段落。", nw, paras),
		checks: []schemas.Check{answerInt(nw), answerInt(paras)},
	}}
}

func buildConcat2(c *bctx) []spec {
	w1, h1 := c.imageSize(0)
	w2, h2 := c.imageSize(1)
	w2s := int(float64(w2)*float64(h1)/float64(h2) + 0.5)
	return []spec{{
		params: "concat2",
		en: []string{fmt.Sprintf("Put %s and %s side by side (%s on the left), scaling the second to the first one's height, and save the combined image to {OUT}.png.", c.name(0), c.name(1), c.name(0)),
			fmt.Sprintf("Concatenate the two pictures horizontally: %s first, then %s resized to the same height (keep its aspect ratio). Save it as {OUT}.png.", c.name(0), c.name(1))},
		zh: []string{fmt.Sprintf("请把 %s 和 %s 左右拼接（%s 在左），第二张按比例缩放到与第一张同高，结果保存到 {OUT}.png。", c.name(0), c.name(1), c.name(0)),
			fmt.Sprintf("将两张图片横向拼接：先 %s，再 %s（等比缩放到相同高度），存为 {OUT}.png。", c.name(0), c.name(1))},
		steps: []schemas.RefStep{step("Open both, scale the second to the first's height, paste side by side.", fmt.Sprintf(`import os
from PIL import Image

def flat(im):
    # transparency over white, as a viewer shows it
    if im.mode in ('RGBA', 'LA', 'PA') or 'transparency' in im.info:
        im = im.convert('RGBA')
        return Image.alpha_composite(Image.new('RGBA', im.size, (255, 255, 255, 255)), im).convert('RGB')
    return im.convert('RGB')

a = flat(Image.open(%s))
b = flat(Image.open(%s))
b = b.resize((round(b.width * a.height / b.height), a.height))
out = Image.new('RGB', (a.width + b.width, a.height), 'white')
out.paste(a, (0, 0))
out.paste(b, (a.width, 0))
os.makedirs('./output', exist_ok=True)
out.save('{OUT}.png')
print(out.size)`, py(c.dpath(0)), py(c.dpath(1))))},
		answer: fmt.Sprintf("The combined %dx%d image is saved to {OUT}.png.", w1+w2s, h1), answerZh: fmt.Sprintf("拼接后的 %dx%d 图片已保存到 {OUT}.png。", w1+w2s, h1),
		checks: []schemas.Check{pyCheck(`
im = open_image('{out}.png')
assert abs(im.width - %[1]d) <= 2 and im.height == %[2]d, '{out}.png is %%dx%%d, expected about %[1]dx%[2]d' %% im.size
a, b = open_image(%[3]s), open_image(%[4]s)
s1 = similarity(im.crop((0, 0, %[5]d, %[2]d)), a)
s2 = similarity(im.crop((%[5]d, 0, im.width, %[2]d)), b)
assert s1 >= 0.9, 'the left part of {out}.png is not %[6]s (similarity %%.2f)' %% s1
assert s2 >= 0.85, 'the right part of {out}.png is not %[7]s (similarity %%.2f)' %% s2
`, w1+w2s, h1, py("data/"+c.name(0)), py("data/"+c.name(1)), w1, c.name(0), c.name(1))},
		outputs: []string{"{out}.png"},
	}}
}
