package template

import (
	"fmt"
	"strings"

	"synth/schemas"
)

func init() {
	register(&tmpl{Info: Info{Name: "web.page", Version: 1, Category: schemas.CategorySoftware, Subcategory: GroupWeb},
		inputs: 0, build: repeat(2, buildWebPage), mutate: mutateEmptyFile})
	register(&tmpl{Info: Info{Name: "web.form", Version: 1, Category: schemas.CategorySoftware, Subcategory: GroupWeb},
		inputs: 0, build: repeat(1, buildWebForm), mutate: mutateEmptyFile})
	register(&tmpl{Info: Info{Name: "web.datatable", Version: 1, Category: schemas.CategorySoftware, Subcategory: GroupWeb, FileTypes: []string{"csv", "tsv", "xlsx", "xls", "json"}},
		inputs: 1, build: buildWebTable, mutate: mutateEmptyFile})
}

var pageTopics = []struct {
	title, heading, zhTitle string
	items                   []string
	link                    string
}{
	{"My Reading List", "Books I Want to Read", "我的书单", []string{"Dune", "The Hobbit", "Neuromancer", "Beloved"}, "https://openlibrary.org"},
	{"Weekend Recipes", "Easy Dishes", "周末食谱", []string{"Pancakes", "Tomato Soup", "Fried Rice"}, "https://example.com/recipes"},
	{"Team Members", "Our Team", "团队成员", []string{"Alice", "Bob", "Carmen", "David", "Elena"}, "https://example.com/about"},
	{"Travel Plans", "Cities to Visit", "旅行计划", []string{"Lisbon", "Kyoto", "Toronto"}, "https://example.com/trips"},
}

func buildWebPage(c *bctx) ([]spec, error) {
	p := pageTopics[c.rng.IntN(len(pageTopics))]
	list := strings.Join(p.items, ", ")
	var li strings.Builder
	for _, it := range p.items {
		fmt.Fprintf(&li, "    <li>%s</li>\n", it)
	}
	html := fmt.Sprintf("<!DOCTYPE html>\n<html>\n<head>\n  <meta charset=\"utf-8\">\n  <title>%s</title>\n  <style>body { font-family: sans-serif; margin: 2em; }</style>\n</head>\n<body>\n  <h1>%s</h1>\n  <ul>\n%s  </ul>\n  <p>More at <a href=\"%s\">this link</a>.</p>\n</body>\n</html>\n",
		p.title, p.heading, li.String(), p.link)
	return []spec{{
		params: p.title,
		en: []string{
			fmt.Sprintf("Create a web page saved as {OUT}.html. Its title should be \"%s\", it needs an <h1> heading \"%s\", a bulleted list with %s, and a link to %s.", p.title, p.heading, list, p.link),
			fmt.Sprintf("Write an HTML file {OUT}.html: page title '%s', main heading '%s', an unordered list of these items: %s; and somewhere a hyperlink pointing to %s.", p.title, p.heading, list, p.link),
		},
		zh: []string{
			fmt.Sprintf("请制作一个网页并保存为 {OUT}.html：页面标题为“%s”，一级标题为“%s”，包含一个列出 %s 的无序列表，以及一个指向 %s 的链接。", p.title, p.heading, list, p.link),
			fmt.Sprintf("写一个 HTML 页面 {OUT}.html，title 是 %s，h1 是 %s，用 ul 列出：%s，并加一个链接到 %s。", p.title, p.heading, list, p.link),
		},
		steps:    []schemas.RefStep{writeFileStep("Write the page with every requested element.", "{OUT}.html", html)},
		answer:   "The page is saved to {OUT}.html.",
		answerZh: "网页已保存到 {OUT}.html。",
		checks: []schemas.Check{
			fileCheck("{out}.html", "html", 50),
			pyCheck(`
els = html_elements('{out}.html')
title = [e['text'] for e in els if e['tag'] == 'title']
assert title and title[0] == %[1]s, 'the page title is %%r, expected %%r' %% (title[0] if title else None, %[1]s)
h1 = [e['text'] for e in els if e['tag'] == 'h1']
assert %[2]s in h1, 'no <h1> says %%r (found %%r)' %% (%[2]s, h1)
items = [e['text'] for e in els if e['tag'] == 'li']
missing = [x for x in %[3]s if not any(x.lower() in i.lower() for i in items)]
assert not missing, 'the list lacks %%s' %% ', '.join(missing)
assert any(e['tag'] == 'ul' for e in els), 'no <ul> list'
assert any(e['tag'] == 'a' and e['attrs'].get('href', '').rstrip('/') == %[4]s.rstrip('/') for e in els), 'no link to %%s' %% %[4]s
`, py(p.title), py(p.heading), pyList(p.items), py(p.link)),
		},
		outputs: []string{"{out}.html"},
	}}, nil
}

func buildWebForm(c *bctx) ([]spec, error) {
	fields := [][]string{{"name", "text"}, {"email", "email"}, {"password", "password"}}
	if c.rng.IntN(2) == 0 {
		fields = [][]string{{"username", "text"}, {"email", "email"}, {"age", "number"}}
	}
	var desc, zhDesc []string
	var inputs strings.Builder
	var want []string
	for _, f := range fields {
		desc = append(desc, fmt.Sprintf("%s (type %s)", f[0], f[1]))
		zhDesc = append(zhDesc, fmt.Sprintf("%s（类型 %s）", f[0], f[1]))
		fmt.Fprintf(&inputs, "    <label>%s <input type=\"%s\" name=\"%s\"></label><br>\n", f[0], f[1], f[0])
		want = append(want, f[0]+":"+f[1])
	}
	html := fmt.Sprintf("<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\"><title>Sign Up</title></head>\n<body>\n  <h1>Sign Up</h1>\n  <form action=\"/signup\" method=\"post\">\n%s    <button type=\"submit\">Submit</button>\n  </form>\n</body>\n</html>\n", inputs.String())
	return []spec{{
		params: strings.Join(want, ","),
		en: []string{
			fmt.Sprintf("Build a sign-up page {OUT}.html with a form (method post) that has input fields %s and a submit button.", strings.Join(desc, ", ")),
			fmt.Sprintf("I need an HTML registration form saved to {OUT}.html: inputs named %s, posted with method=post, plus a submit button.", strings.Join(desc, ", ")),
		},
		zh: []string{
			fmt.Sprintf("请做一个注册页面 {OUT}.html，包含一个 method 为 post 的表单，表单里有输入框 %s，以及一个提交按钮。", strings.Join(zhDesc, "、")),
			fmt.Sprintf("写一个 HTML 注册表单保存为 {OUT}.html：输入项 %s，使用 post 提交，并带提交按钮。", strings.Join(zhDesc, "、")),
		},
		steps:  []schemas.RefStep{writeFileStep("Write the form page.", "{OUT}.html", html)},
		answer: "The sign-up form is saved to {OUT}.html.", answerZh: "注册表单页面已保存到 {OUT}.html。",
		checks: []schemas.Check{pyCheck(`
els = html_elements('{out}.html')
forms = [e for e in els if e['tag'] == 'form']
assert forms, '{out}.html has no <form>'
assert forms[0]['attrs'].get('method', '').lower() == 'post', 'the form method is %%r, expected post' %% forms[0]['attrs'].get('method')
inputs = {e['attrs'].get('name'): (e['attrs'].get('type') or 'text').lower() for e in els if e['tag'] in ('input', 'textarea', 'select')}
for spec in %s:
    name, typ = spec.split(':')
    assert name in inputs, 'no input named %%s (found %%s)' %% (name, sorted(k for k in inputs if k))
    assert inputs[name] == typ, 'input %%s has type %%s, expected %%s' %% (name, inputs[name], typ)
assert any((e['tag'] == 'button' and e['attrs'].get('type', 'submit') == 'submit') or (e['tag'] == 'input' and e['attrs'].get('type') == 'submit') for e in els), 'no submit button'
`, pyList(want))},
		outputs: []string{"{out}.html"},
	}}, nil
}

func buildWebTable(c *bctx) ([]spec, error) {
	t := c.table(0)
	if len(t.rows) > 500 || t.hasObjects() {
		// pandas writes a json table's lists and objects as their Python
		// repr, which the cell check cannot tell from the input's.
		return nil, nil
	}
	return []spec{{
		params: "datatable",
		en: []string{
			"Turn this data into a web page: save {OUT}.html with an HTML <table> that has a header row with the column names and one row per record.",
			"Publish the table as HTML. Write {OUT}.html containing the full data as a <table> (header plus every row).",
		},
		zh: []string{
			"请把这份数据做成网页：保存为 {OUT}.html，用 HTML <table> 展示，表头为列名，每条记录一行。",
			"将表格导出为 HTML 页面 {OUT}.html，包含完整数据的 <table>（表头加所有行）。",
		},
		steps: []schemas.RefStep{loadStep(c, 0), step("pandas writes the table as HTML.",
			"import os\nos.makedirs('./output', exist_ok=True)\nhtml = '<!DOCTYPE html>\\n<html><head><meta charset=\"utf-8\"><title>Data</title></head><body>\\n' + df.to_html(index=False) + '\\n</body></html>'\nopen('{OUT}.html', 'w', encoding='utf-8').write(html)\nprint(len(df))")},
		answer: fmt.Sprintf("The page with a %d-row table is saved to {OUT}.html.", len(t.rows)), answerZh: fmt.Sprintf("包含 %d 行数据表格的网页已保存到 {OUT}.html。", len(t.rows)),
		checks:  []schemas.Check{htmlTableCheck(c, headCols(t, 5))},
		outputs: []string{"{out}.html"},
	}}, nil
}
