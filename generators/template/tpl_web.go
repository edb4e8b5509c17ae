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
	register(&tmpl{Info: Info{Name: "web.datatable", Version: 1, Category: schemas.CategorySoftware, Subcategory: GroupWeb, FileTypes: []string{"csv", "tsv", "xlsx", "json"}},
		inputs: 1, build: buildWebTable, mutate: mutateEmptyFile})
	register(&tmpl{Info: Info{Name: "program.function", Version: 1, Category: schemas.CategorySoftware, Subcategory: GroupProgram},
		inputs: 0, build: repeat(3, buildFunction), mutate: mutateEmptyFile})
	register(&tmpl{Info: Info{Name: "program.class", Version: 1, Category: schemas.CategorySoftware, Subcategory: GroupProgram},
		inputs: 0, build: repeat(2, buildClass), mutate: mutateEmptyFile})
}

// mutateEmptyFile writes a placeholder where the output should be.
func mutateEmptyFile(t *schemas.Task) *schemas.Reference {
	if len(t.Outputs) == 0 || t.Reference == nil {
		return nil
	}
	code := fmt.Sprintf("import os\n"+makeDirFor("./"+t.Outputs[0])+"\nopen(%s, 'w').write('TODO\\n')", py("./"+t.Outputs[0]))
	return &schemas.Reference{Steps: []schemas.RefStep{{Thought: "Write a placeholder.", Code: code}}, Answer: t.Reference.Answer}
}

func writeFileStep(thought, path, content string) schemas.RefStep {
	return step(thought, fmt.Sprintf("import os\nos.makedirs('./output', exist_ok=True)\ncontent = %s\nwith open('%s', 'w', encoding='utf-8') as f:\n    f.write(content)\nprint(len(content))", pyTriple(content), path))
}

// pyTriple quotes s as a Python triple-quoted raw-safe literal.
func pyTriple(s string) string {
	if !strings.Contains(s, `"""`) && !strings.Contains(s, `\`) && !strings.HasSuffix(s, `"`) {
		return `"""` + s + `"""`
	}
	return py(s)
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

func buildWebPage(c *bctx) []spec {
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
	}}
}

func buildWebForm(c *bctx) []spec {
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
	}}
}

func buildWebTable(c *bctx) []spec {
	t := c.table(0)
	if len(t.rows) > 500 {
		return nil
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
		checks: []schemas.Check{pyCheck(`
els = html_elements('{out}.html')
assert any(e['tag'] == 'table' for e in els), '{out}.html has no <table>'
rows = [e for e in els if e['tag'] == 'tr']
assert len(rows) == %d + 1, '{out}.html has %%d table rows, expected %d plus a header' %% len(rows)
heads = [e['text'] for e in els if e['tag'] == 'th']
missing = [h for h in %s if h not in heads]
assert not missing, 'the table header lacks %%s' %% missing
`, len(t.rows), len(t.rows), pyList(headCols(t, 5)))},
		outputs: []string{"{out}.html"},
	}}
}

var functions = []struct {
	name, en, zh, code, tests string
}{
	{"is_prime", "is_prime(n) that returns True when the integer n is prime and False otherwise", "is_prime(n)：整数 n 是质数时返回 True，否则返回 False",
		"def is_prime(n):\n    if n < 2:\n        return False\n    i = 2\n    while i * i <= n:\n        if n % i == 0:\n            return False\n        i += 1\n    return True\n",
		"[((1,), False), ((2,), True), ((17,), True), ((21,), False), ((7919,), True), ((0,), False), ((-7,), False)]"},
	{"fibonacci", "fibonacci(n) that returns the n-th Fibonacci number, with fibonacci(0) = 0 and fibonacci(1) = 1", "fibonacci(n)：返回第 n 个斐波那契数，fibonacci(0) = 0，fibonacci(1) = 1",
		"def fibonacci(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
		"[((0,), 0), ((1,), 1), ((2,), 1), ((10,), 55), ((30,), 832040)]"},
	{"is_palindrome", "is_palindrome(s) that tells whether a string reads the same backwards, ignoring case, spaces and punctuation", "is_palindrome(s)：判断字符串忽略大小写、空格和标点后是否为回文",
		"def is_palindrome(s):\n    t = [ch.lower() for ch in s if ch.isalnum()]\n    return t == t[::-1]\n",
		"[(('Racecar',), True), (('A man, a plan, a canal: Panama',), True), (('hello',), False), (('',), True), (('ab',), False)]"},
	{"word_count", "word_count(text) that returns a dict mapping each lower-cased word (runs of letters) to how often it occurs", "word_count(text)：返回一个字典，键为小写单词（连续字母），值为出现次数",
		"import re\n\ndef word_count(text):\n    counts = {}\n    for w in re.findall(r'[a-z]+', text.lower()):\n        counts[w] = counts.get(w, 0) + 1\n    return counts\n",
		"[(('The cat and the hat',), {'the': 2, 'cat': 1, 'and': 1, 'hat': 1}), (('',), {}), (('Go, go GO!',), {'go': 3})]"},
	{"fizzbuzz", "fizzbuzz(n) that returns a list of strings for 1..n: 'Fizz' for multiples of 3, 'Buzz' for multiples of 5, 'FizzBuzz' for both, else the number", "fizzbuzz(n)：返回 1 到 n 的字符串列表，3 的倍数为 'Fizz'，5 的倍数为 'Buzz'，同时是两者的倍数为 'FizzBuzz'，否则为数字本身",
		"def fizzbuzz(n):\n    out = []\n    for i in range(1, n + 1):\n        s = ('Fizz' if i % 3 == 0 else '') + ('Buzz' if i % 5 == 0 else '')\n        out.append(s or str(i))\n    return out\n",
		"[((5,), ['1', '2', 'Fizz', '4', 'Buzz']), ((15,), ['1', '2', 'Fizz', '4', 'Buzz', 'Fizz', '7', '8', 'Fizz', 'Buzz', '11', 'Fizz', '13', '14', 'FizzBuzz']), ((0,), [])]"},
	{"binary_search", "binary_search(items, target) that returns the index of target in the sorted list items, or -1 when it is absent", "binary_search(items, target)：在有序列表 items 中查找 target，返回其下标，不存在时返回 -1",
		"def binary_search(items, target):\n    lo, hi = 0, len(items) - 1\n    while lo <= hi:\n        mid = (lo + hi) // 2\n        if items[mid] == target:\n            return mid\n        if items[mid] < target:\n            lo = mid + 1\n        else:\n            hi = mid - 1\n    return -1\n",
		"[(([1, 3, 5, 7, 9], 7), 3), (([1, 3, 5, 7, 9], 1), 0), (([1, 3, 5], 4), -1), (([], 3), -1)]"},
	{"tic_tac_toe_winner", "tic_tac_toe_winner(board) where board is a list of three strings of 'X', 'O' or '.', returning 'X' or 'O' for the winner or None when nobody has three in a row", "tic_tac_toe_winner(board)：board 是由 'X'、'O'、'.' 组成的三个字符串，返回获胜方 'X' 或 'O'，没有人连成三个时返回 None",
		"def tic_tac_toe_winner(board):\n    lines = [list(r) for r in board]\n    lines += [[board[r][c] for r in range(3)] for c in range(3)]\n    lines += [[board[i][i] for i in range(3)], [board[i][2 - i] for i in range(3)]]\n    for l in lines:\n        if l[0] != '.' and l.count(l[0]) == 3:\n            return l[0]\n    return None\n",
		"[((['XXX', 'OO.', '...'],), 'X'), ((['XO.', 'XO.', '.O.'],), 'O'), ((['XOX', 'OXO', 'OXO'],), None), ((['O.X', '.X.', 'X.O'],), 'X')]"},
}

func buildFunction(c *bctx) []spec {
	f := functions[c.rng.IntN(len(functions))]
	return []spec{{
		params: f.name,
		en: []string{
			fmt.Sprintf("Write a Python module saved as {OUT}.py that defines a function %s.", f.en),
			fmt.Sprintf("Implement %s in a file {OUT}.py. Only the function is needed; no input() calls.", f.en),
		},
		zh: []string{
			fmt.Sprintf("请编写一个 Python 模块并保存为 {OUT}.py，在其中定义函数 %s。", f.zh),
			fmt.Sprintf("在文件 {OUT}.py 中实现函数 %s，不要调用 input()。", f.zh),
		},
		steps: []schemas.RefStep{
			writeFileStep("Write the function to the module.", "{OUT}.py", f.code),
			step("Import it and try a few cases.", fmt.Sprintf("import importlib.util\nspec = importlib.util.spec_from_file_location('m', '{OUT}.py')\nm = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)\nfor args, want in %s:\n    print(args, m.%s(*args), want)", f.tests, f.name)),
		},
		answer: fmt.Sprintf("%s is implemented in {OUT}.py.", f.name), answerZh: fmt.Sprintf("函数 %s 已写入 {OUT}.py。", f.name),
		checks: []schemas.Check{pyCheck(`
m = load_module('{out}.py')
fn = getattr(m, %[1]q, None)
assert callable(fn), '{out}.py defines no function %[1]s'
for args, want in %[2]s:
    got = fn(*args)
    assert got == want, '%[1]s%%r returned %%r, expected %%r' %% (args, got, want)
`, f.name, f.tests)},
		outputs: []string{"{out}.py"},
	}}
}

var classes = []struct {
	name, en, zh, code, test string
}{
	{"BankAccount", "a class BankAccount(owner, balance=0) with deposit(amount), withdraw(amount) and a balance attribute; withdraw raises ValueError when the amount exceeds the balance, and both raise ValueError for non-positive amounts",
		"类 BankAccount(owner, balance=0)，包含 deposit(amount)、withdraw(amount) 方法和 balance 属性；取款金额超过余额时 withdraw 抛出 ValueError，金额不为正数时两者都抛出 ValueError",
		"class BankAccount:\n    def __init__(self, owner, balance=0):\n        self.owner = owner\n        self.balance = balance\n\n    def deposit(self, amount):\n        if amount <= 0:\n            raise ValueError('amount must be positive')\n        self.balance += amount\n\n    def withdraw(self, amount):\n        if amount <= 0:\n            raise ValueError('amount must be positive')\n        if amount > self.balance:\n            raise ValueError('insufficient funds')\n        self.balance -= amount\n",
		"a = C('Ann', 100)\na.deposit(50)\na.withdraw(30)\nassert a.balance == 120, 'balance is %r after +50 -30 from 100, expected 120' % a.balance\nfor bad in (lambda: a.withdraw(1000), lambda: a.deposit(0), lambda: a.withdraw(-5)):\n    try:\n        bad()\n    except ValueError:\n        pass\n    else:\n        raise AssertionError('an invalid deposit or withdrawal did not raise ValueError')\nassert a.balance == 120, 'a failed operation changed the balance'"},
	{"Stack", "a class Stack with push(item), pop() (raising IndexError when empty), peek(), is_empty() and len() support", "类 Stack，支持 push(item)、pop()（栈空时抛出 IndexError）、peek()、is_empty() 以及 len()",
		"class Stack:\n    def __init__(self):\n        self._items = []\n\n    def push(self, item):\n        self._items.append(item)\n\n    def pop(self):\n        if not self._items:\n            raise IndexError('pop from empty stack')\n        return self._items.pop()\n\n    def peek(self):\n        return self._items[-1]\n\n    def is_empty(self):\n        return not self._items\n\n    def __len__(self):\n        return len(self._items)\n",
		"s = C()\nassert s.is_empty(), 'a new stack is not empty'\nfor i in (1, 2, 3):\n    s.push(i)\nassert len(s) == 3, 'len is %r after 3 pushes' % len(s)\nassert s.peek() == 3 and s.pop() == 3 and s.pop() == 2, 'pop does not return the last pushed item'\ns.pop()\ntry:\n    s.pop()\nexcept IndexError:\n    pass\nelse:\n    raise AssertionError('pop on an empty stack did not raise IndexError')"},
	{"Matrix", "a class Matrix(rows) holding a list of lists, with shape(), transpose() returning a new Matrix, and __mul__ for matrix multiplication (raising ValueError on mismatched shapes); the rows are kept in an attribute rows",
		"类 Matrix(rows)，用列表的列表保存数据（属性 rows），提供 shape()、返回新 Matrix 的 transpose()，以及用 __mul__ 实现矩阵乘法（形状不匹配时抛出 ValueError）",
		"class Matrix:\n    def __init__(self, rows):\n        self.rows = [list(r) for r in rows]\n\n    def shape(self):\n        return (len(self.rows), len(self.rows[0]) if self.rows else 0)\n\n    def transpose(self):\n        return Matrix([list(c) for c in zip(*self.rows)])\n\n    def __mul__(self, other):\n        n, k = self.shape()\n        k2, m = other.shape()\n        if k != k2:\n            raise ValueError('shape mismatch')\n        return Matrix([[sum(self.rows[i][t] * other.rows[t][j] for t in range(k)) for j in range(m)] for i in range(n)])\n",
		"a = C([[1, 2, 3], [4, 5, 6]])\nassert tuple(a.shape()) == (2, 3), 'shape is %r' % (a.shape(),)\nt = a.transpose()\nassert t.rows == [[1, 4], [2, 5], [3, 6]], 'transpose gives %r' % t.rows\np = a * t\nassert p.rows == [[14, 32], [32, 77]], 'A * A^T gives %r' % p.rows\ntry:\n    a * a\nexcept ValueError:\n    pass\nelse:\n    raise AssertionError('multiplying 2x3 by 2x3 did not raise ValueError')"},
}

func buildClass(c *bctx) []spec {
	k := classes[c.rng.IntN(len(classes))]
	return []spec{{
		params: k.name,
		en:     []string{fmt.Sprintf("Write {OUT}.py defining %s.", k.en), fmt.Sprintf("Implement %s. Put it in the file {OUT}.py.", k.en)},
		zh:     []string{fmt.Sprintf("请编写 {OUT}.py，定义%s。", k.zh), fmt.Sprintf("实现%s，代码保存到 {OUT}.py。", k.zh)},
		steps: []schemas.RefStep{
			writeFileStep("Write the class.", "{OUT}.py", k.code),
			step("Import it and exercise it.", fmt.Sprintf("import importlib.util\nspec = importlib.util.spec_from_file_location('m', '{OUT}.py')\nm = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)\nC = m.%s\n%s\nprint('ok')", k.name, k.test)),
		},
		answer: fmt.Sprintf("The %s class is in {OUT}.py.", k.name), answerZh: fmt.Sprintf("%s 类已写入 {OUT}.py。", k.name),
		checks:  []schemas.Check{pyCheck("m = load_module('{out}.py')\nC = getattr(m, %q, None)\nassert C is not None, '{out}.py defines no class %s'\n%s", k.name, k.name, k.test)},
		outputs: []string{"{out}.py"},
	}}
}
