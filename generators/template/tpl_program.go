package template

import (
	"fmt"

	"synth/schemas"
)

func init() {
	register(&tmpl{Info: Info{Name: "program.function", Version: 1, Category: schemas.CategorySoftware, Subcategory: GroupProgram},
		inputs: 0, build: repeat(3, buildFunction), mutate: mutateEmptyFile})
	register(&tmpl{Info: Info{Name: "program.class", Version: 1, Category: schemas.CategorySoftware, Subcategory: GroupProgram},
		inputs: 0, build: repeat(2, buildClass), mutate: mutateEmptyFile})
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

func buildFunction(c *bctx) ([]spec, error) {
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
	}}, nil
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

func buildClass(c *bctx) ([]spec, error) {
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
	}}, nil
}
