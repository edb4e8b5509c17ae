package template

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"synth/schemas"
)

func init() {
	for _, t := range []struct {
		name  string
		build func(*bctx) ([]spec, error)
	}{
		{"math.derivative", buildDerivative}, {"math.integral", buildIntegral}, {"math.quadratic", buildQuadratic},
		{"math.linsys", buildLinSys}, {"math.bigint", buildBigInt}, {"math.limit", buildLimit},
		{"math.series", buildSeries}, {"math.determinant", buildDeterminant}, {"math.primes", buildPrimes},
		{"math.gcd", buildGCD},
	} {
		register(&tmpl{Info: Info{Name: t.name, Version: 1, Category: schemas.CategoryMath, Subcategory: GroupMath},
			inputs: 0, build: repeat(2, t.build), mutate: mutateAnswer})
	}
}

// repeat builds n instances of a no-file template, each with its own
// parameters from the random stream.
func repeat(n int, b func(*bctx) ([]spec, error)) func(*bctx) ([]spec, error) {
	return func(c *bctx) ([]spec, error) {
		var out []spec
		seen := map[string]bool{}
		for i := 0; i < n*3 && len(out) < n; i++ {
			specs, err := b(c)
			if err != nil {
				return nil, err
			}
			for _, s := range specs {
				if !seen[s.params] {
					seen[s.params] = true
					out = append(out, s)
				}
			}
		}
		return out, nil
	}
}

// poly formats integer coefficients (highest power first) as 3x^3 - 2x + 1.
func poly(cs []int, pyForm bool) string {
	var b strings.Builder
	deg := len(cs) - 1
	for i, c := range cs {
		p := deg - i
		if c == 0 {
			continue
		}
		sign := " + "
		if c < 0 {
			sign = " - "
		}
		if b.Len() == 0 {
			sign = ""
			if c < 0 {
				sign = "-"
			}
		}
		a := c
		if a < 0 {
			a = -a
		}
		coef := fmt.Sprint(a)
		mul := ""
		if pyForm {
			mul = "*"
		}
		if a == 1 && p > 0 {
			coef, mul = "", ""
		}
		term := coef
		switch {
		case p == 1:
			term += mul + "x"
		case p > 1:
			if pyForm {
				term += mul + fmt.Sprintf("x**%d", p)
			} else {
				term += fmt.Sprintf("x^%d", p)
			}
		}
		b.WriteString(sign + term)
	}
	if b.Len() == 0 {
		return "0"
	}
	return b.String()
}

func evalPoly(cs []int, x float64) float64 {
	v := 0.0
	for _, c := range cs {
		v = v*x + float64(c)
	}
	return v
}

func nz(c *bctx, lo, hi int) int {
	for {
		v := lo + c.rng.IntN(hi-lo+1)
		if v != 0 {
			return v
		}
	}
}

func mathSpec(params, en1, en2, zh1, zh2, code, answer, answerZh string, cs ...schemas.Check) []spec {
	return []spec{{params: params, en: []string{en1, en2}, zh: []string{zh1, zh2},
		steps:  []schemas.RefStep{step("Solve it symbolically with sympy and check numerically.", code)},
		answer: answer, answerZh: answerZh, checks: cs}}
}

func buildDerivative(c *bctx) ([]spec, error) {
	if c.rng.IntN(2) == 0 {
		cs := []int{nz(c, -5, 5), c.rng.IntN(11) - 5, c.rng.IntN(11) - 5, c.rng.IntN(21) - 10}
		x0 := c.rng.IntN(7) - 3
		d := []int{3 * cs[0], 2 * cs[1], cs[2]}
		v := evalPoly(d, float64(x0))
		f := poly(cs, false)
		return mathSpec(fmt.Sprintf("poly:%v:%d", cs, x0),
			fmt.Sprintf("Let f(x) = %s. What is f'(%d)?", f, x0),
			fmt.Sprintf("Differentiate f(x) = %s and evaluate the derivative at x = %d.", f, x0),
			fmt.Sprintf("设 f(x) = %s，求 f'(%d) 的值。", f, x0),
			fmt.Sprintf("对 f(x) = %s 求导，并计算 x = %d 处的导数值。", f, x0),
			fmt.Sprintf("import sympy as sp\nx = sp.symbols('x')\nf = %s\nd = sp.diff(f, x)\nprint(d, d.subs(x, %d))", poly(cs, true), x0),
			fmt.Sprintf("f'(x) = %s, so f'(%d) = %s.", poly(d, false), x0, num(v)),
			fmt.Sprintf("f'(x) = %s，所以 f'(%d) = %s。", poly(d, false), x0, num(v)),
			answerNum(v)), nil
	}
	n, a := 1+c.rng.IntN(3), 1+c.rng.IntN(3)
	x0 := []float64{0.5, 1, 1.5, 2}[c.rng.IntN(4)]
	ax := kx(a)
	v := float64(n)*math.Pow(x0, float64(n-1))*math.Sin(float64(a)*x0) + float64(a)*math.Pow(x0, float64(n))*math.Cos(float64(a)*x0)
	return mathSpec(fmt.Sprintf("xsin:%d:%d:%v", n, a, x0),
		fmt.Sprintf("Find the derivative of f(x) = x^%d · sin(%s) and evaluate it at x = %v (radians). Give 4 decimals.", n, ax, x0),
		fmt.Sprintf("What is d/dx [x^%d sin(%s)] at x = %v? Round to four decimal places.", n, ax, x0),
		fmt.Sprintf("求 f(x) = x^%d · sin(%s) 的导数，并计算 x = %v（弧度）时的值，保留 4 位小数。", n, ax, x0),
		fmt.Sprintf("计算 x^%d sin(%s) 在 x = %v 处的导数值（保留四位小数）。", n, ax, x0),
		fmt.Sprintf("import sympy as sp\nx = sp.symbols('x')\nd = sp.diff(x**%d * sp.sin(%d*x), x)\nprint(d, sp.N(d.subs(x, %v)))", n, a, x0),
		fmt.Sprintf("The derivative at x = %v is %.4f.", x0, v), fmt.Sprintf("x = %v 处的导数值为 %.4f。", x0, v),
		schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(v, 6), RelTol: 1e-3, AbsTol: 1e-3}}), nil
}

func buildIntegral(c *bctx) ([]spec, error) {
	if c.rng.IntN(2) == 0 {
		cs := []int{nz(c, -4, 4), c.rng.IntN(9) - 4, c.rng.IntN(11) - 5}
		a, b := c.rng.IntN(3)-1, 2+c.rng.IntN(3)
		F := func(x float64) float64 {
			return float64(cs[0])*x*x*x/3 + float64(cs[1])*x*x/2 + float64(cs[2])*x
		}
		v := F(float64(b)) - F(float64(a))
		f := poly(cs, false)
		return mathSpec(fmt.Sprintf("poly:%v:%d:%d", cs, a, b),
			fmt.Sprintf("Compute the definite integral of %s from x = %d to x = %d.", f, a, b),
			fmt.Sprintf("What is ∫ from %d to %d of (%s) dx?", a, b, f),
			fmt.Sprintf("计算定积分：∫ 从 %d 到 %d 的 (%s) dx。", a, b, f),
			fmt.Sprintf("求函数 %s 在区间 [%d, %d] 上的定积分。", f, a, b),
			fmt.Sprintf("import sympy as sp\nx = sp.symbols('x')\nv = sp.integrate(%s, (x, %d, %d))\nprint(v, float(v))", poly(cs, true), a, b),
			fmt.Sprintf("The integral equals %s (≈ %.4f).", ratString(v), v), fmt.Sprintf("定积分的值为 %s（约 %.4f）。", ratString(v), v),
			schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(v, 6), RelTol: 1e-3, AbsTol: 1e-3}}), nil
	}
	k := 1 + c.rng.IntN(3)
	K := float64(k)
	v := math.Exp(K)*(1/K-1/(K*K)) + 1/(K*K)
	return mathSpec(fmt.Sprintf("xexp:%d", k),
		fmt.Sprintf("Evaluate the integral of x·e^(%s) from 0 to 1. Give the result to 4 decimals.", kx(k)),
		fmt.Sprintf("Compute ∫₀¹ x e^{%s} dx numerically (4 decimal places).", kx(k)),
		fmt.Sprintf("计算 x·e^(%s) 在 0 到 1 上的定积分，保留 4 位小数。", kx(k)),
		fmt.Sprintf("求 ∫₀¹ x e^{%s} dx 的值（保留四位小数）。", kx(k)),
		fmt.Sprintf("import sympy as sp\nx = sp.symbols('x')\nv = sp.integrate(x * sp.exp(%d*x), (x, 0, 1))\nprint(v, sp.N(v))", k),
		fmt.Sprintf("The integral is %.4f.", v), fmt.Sprintf("积分值约为 %.4f。", v),
		schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(v, 6), RelTol: 1e-3, AbsTol: 1e-3}}), nil
}

// ratString shows a value as a fraction with a small denominator when it is one.
func ratString(v float64) string {
	for d := 1; d <= 12; d++ {
		n := v * float64(d)
		if math.Abs(n-math.Round(n)) < 1e-9 {
			if d == 1 {
				return fmt.Sprint(int(math.Round(n)))
			}
			return fmt.Sprintf("%d/%d", int(math.Round(n)), d)
		}
	}
	return fmt.Sprintf("%.4f", v)
}

func buildQuadratic(c *bctx) ([]spec, error) {
	r1 := c.rng.IntN(19) - 9
	r2 := c.rng.IntN(19) - 9
	if r1 == r2 || r1 == 0 || r2 == 0 {
		return nil, nil
	}
	a := nz(c, -3, 3)
	cs := []int{a, -a * (r1 + r2), a * r1 * r2}
	f := poly(cs, false)
	lo, hi := min(r1, r2), max(r1, r2)
	return mathSpec(fmt.Sprintf("%v", cs),
		fmt.Sprintf("Solve the equation %s = 0 for x.", f),
		fmt.Sprintf("Find all real roots of %s = 0.", f),
		fmt.Sprintf("解方程 %s = 0。", f),
		fmt.Sprintf("求方程 %s = 0 的所有实数根。", f),
		fmt.Sprintf("import sympy as sp\nx = sp.symbols('x')\nprint(sp.solve(sp.Eq(%s, 0), x))", poly(cs, true)),
		fmt.Sprintf("The roots are x = %d and x = %d.", lo, hi), fmt.Sprintf("方程的根为 x = %d 和 x = %d。", lo, hi),
		answerInt(lo), answerInt(hi)), nil
}

func buildLinSys(c *bctx) ([]spec, error) {
	sol := [3]int{c.rng.IntN(13) - 6, c.rng.IntN(13) - 6, c.rng.IntN(13) - 6}
	if sol[0] == sol[1] || sol[1] == sol[2] || sol[0] == sol[2] {
		return nil, nil
	}
	var m [3][3]int
	for i := range m {
		for j := range m[i] {
			m[i][j] = c.rng.IntN(9) - 4
		}
	}
	if det3(m) == 0 {
		return nil, nil
	}
	names := []string{"x", "y", "z"}
	var eqs, pys []string
	for i := range m {
		rhs := 0
		cs := make([]string, 0, 3)
		for j := range m[i] {
			rhs += m[i][j] * sol[j]
			if m[i][j] != 0 {
				cs = append(cs, fmt.Sprintf("%+d*%s", m[i][j], names[j]))
			}
		}
		if len(cs) == 0 {
			return nil, nil
		}
		lhs := strings.TrimPrefix(strings.Join(cs, " "), "+")
		eqs = append(eqs, strings.ReplaceAll(fmt.Sprintf("%s = %d", lhs, rhs), "*", ""))
		pys = append(pys, fmt.Sprintf("sp.Eq(%s, %d)", lhs, rhs))
	}
	sys := strings.Join(eqs, "; ")
	return mathSpec(fmt.Sprintf("%v", m),
		fmt.Sprintf("Solve the system of equations: %s.", sys),
		fmt.Sprintf("Find x, y and z such that %s.", sys),
		fmt.Sprintf("解线性方程组：%s。", sys),
		fmt.Sprintf("求满足 %s 的 x、y、z。", sys),
		fmt.Sprintf("import sympy as sp\nx, y, z = sp.symbols('x y z')\nprint(sp.solve([%s], [x, y, z]))", strings.Join(pys, ", ")),
		fmt.Sprintf("x = %d, y = %d, z = %d.", sol[0], sol[1], sol[2]), fmt.Sprintf("解为 x = %d，y = %d，z = %d。", sol[0], sol[1], sol[2]),
		pyCheck(`
import re
want = {'x': %d, 'y': %d, 'z': %d}
for k, v in want.items():
    m = re.search(r'\b' + k + r'\s*[=:]\s*(-?\d+(?:\.\d+)?)', answer)
    assert m and abs(float(m.group(1)) - v) < 1e-6, 'the answer does not give %%s = %%d' %% (k, v)
`, sol[0], sol[1], sol[2])), nil
}

func det3(m [3][3]int) int {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}

// bigAnswer accepts an exact integer written plainly or with separators.
func bigAnswer(n *big.Int) schemas.Check {
	s := n.String()
	return schemas.Check{Kind: schemas.CheckAnswer, ContainsAny: []string{s, commas(s)}}
}

func commas(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

func buildBigInt(c *bctx) ([]spec, error) {
	switch c.rng.IntN(3) {
	case 0:
		n := 25 + c.rng.IntN(16)
		v := new(big.Int).MulRange(1, int64(n))
		return mathSpec(fmt.Sprintf("fact:%d", n),
			fmt.Sprintf("What is the exact value of %d! (%d factorial)?", n, n),
			fmt.Sprintf("Compute %d factorial exactly, all digits.", n),
			fmt.Sprintf("%d 的阶乘（%d!）的精确值是多少？", n, n),
			fmt.Sprintf("请精确计算 %d!，给出全部数字。", n),
			fmt.Sprintf("import math\nprint(math.factorial(%d))", n),
			fmt.Sprintf("%d! = %s", n, v), fmt.Sprintf("%d! = %s", n, v), bigAnswer(v)), nil
	case 1:
		a, b := 2+c.rng.IntN(8), 40+c.rng.IntN(60)
		v := new(big.Int).Exp(big.NewInt(int64(a)), big.NewInt(int64(b)), nil)
		return mathSpec(fmt.Sprintf("pow:%d:%d", a, b),
			fmt.Sprintf("Calculate %d^%d exactly.", a, b),
			fmt.Sprintf("What is %d raised to the power %d? I need every digit.", a, b),
			fmt.Sprintf("精确计算 %d 的 %d 次方。", a, b),
			fmt.Sprintf("%d^%d 等于多少？请给出完整的数字。", a, b),
			fmt.Sprintf("print(%d ** %d)", a, b),
			fmt.Sprintf("%d^%d = %s", a, b, v), fmt.Sprintf("%d^%d = %s", a, b, v), bigAnswer(v)), nil
	default:
		x := new(big.Int)
		x.SetString(fmt.Sprintf("%d%09d", 100000+c.rng.IntN(900000), c.rng.IntN(1000000000)), 10)
		y := new(big.Int)
		y.SetString(fmt.Sprintf("%d%09d", 100000+c.rng.IntN(900000), c.rng.IntN(1000000000)), 10)
		v := new(big.Int).Mul(x, y)
		return mathSpec(fmt.Sprintf("mul:%s:%s", x, y),
			fmt.Sprintf("Multiply %s by %s exactly.", x, y),
			fmt.Sprintf("What is the exact product %s × %s?", x, y),
			fmt.Sprintf("精确计算 %s × %s。", x, y),
			fmt.Sprintf("%s 乘以 %s 的精确结果是多少？", x, y),
			fmt.Sprintf("print(%s * %s)", x, y),
			fmt.Sprintf("The product is %s.", v), fmt.Sprintf("乘积为 %s。", v), bigAnswer(v)), nil
	}
}

func buildLimit(c *bctx) ([]spec, error) {
	a, b := 1+c.rng.IntN(6), 1+c.rng.IntN(6)
	if c.rng.IntN(2) == 0 {
		v := float64(a) / float64(b)
		ax, bx := kx(a), kx(b)
		return mathSpec(fmt.Sprintf("sin:%d:%d", a, b),
			fmt.Sprintf("Evaluate the limit of sin(%s) / (%s) as x approaches 0.", ax, bx),
			fmt.Sprintf("What is lim_{x→0} sin(%s)/(%s)?", ax, bx),
			fmt.Sprintf("求极限：当 x 趋近于 0 时，sin(%s) / (%s) 的值。", ax, bx),
			fmt.Sprintf("计算 lim_{x→0} sin(%s)/(%s)。", ax, bx),
			fmt.Sprintf("import sympy as sp\nx = sp.symbols('x')\nv = sp.limit(sp.sin(%d*x) / (%d*x), x, 0)\nprint(v, float(v))", a, b),
			fmt.Sprintf("The limit is %s ≈ %.4f.", ratString(v), v), fmt.Sprintf("极限值为 %s（约 %.4f）。", ratString(v), v),
			schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(v, 6), RelTol: 1e-3, AbsTol: 1e-3}}), nil
	}
	v := math.Exp(float64(a))
	return mathSpec(fmt.Sprintf("exp:%d", a),
		fmt.Sprintf("Find the limit of (1 + %d/n)^n as n goes to infinity. Give a decimal value.", a),
		fmt.Sprintf("What does (1 + %d/n)^n converge to when n → ∞? Answer with a number to 4 decimals.", a),
		fmt.Sprintf("求 n 趋于无穷时 (1 + %d/n)^n 的极限，给出小数值。", a),
		fmt.Sprintf("(1 + %d/n)^n 在 n → ∞ 时收敛到多少？保留 4 位小数。", a),
		fmt.Sprintf("import sympy as sp\nn = sp.symbols('n', positive=True)\nv = sp.limit((1 + sp.Integer(%d)/n)**n, n, sp.oo)\nprint(v, sp.N(v))", a),
		fmt.Sprintf("The limit is e^%d ≈ %.4f.", a, v), fmt.Sprintf("极限为 e^%d，约等于 %.4f。", a, v),
		schemas.Check{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(v, 6), RelTol: 1e-4}}), nil
}

func buildSeries(c *bctx) ([]spec, error) {
	n := 50 + c.rng.IntN(450)
	p := 2 + c.rng.IntN(2)
	var v int64
	for k := 1; k <= n; k++ {
		v += int64(math.Pow(float64(k), float64(p)))
	}
	return mathSpec(fmt.Sprintf("%d:%d", n, p),
		fmt.Sprintf("What is the sum of k^%d for k from 1 to %d?", p, n),
		fmt.Sprintf("Compute 1^%d + 2^%d + ... + %d^%d.", p, p, n, p),
		fmt.Sprintf("求 k^%d 从 k = 1 到 %d 的和。", p, n),
		fmt.Sprintf("计算 1^%d + 2^%d + … + %d^%d 的值。", p, p, n, p),
		fmt.Sprintf("import sympy as sp\nk = sp.symbols('k')\nprint(sp.summation(k**%d, (k, 1, %d)))", p, n),
		fmt.Sprintf("The sum is %d.", v), fmt.Sprintf("和为 %d。", v), bigAnswer(big.NewInt(v))), nil
}

func buildDeterminant(c *bctx) ([]spec, error) {
	var m [3][3]int
	rows := make([]string, 3)
	for i := range m {
		for j := range m[i] {
			m[i][j] = c.rng.IntN(19) - 9
		}
		rows[i] = fmt.Sprintf("[%d, %d, %d]", m[i][0], m[i][1], m[i][2])
	}
	d := det3(m)
	mat := "[" + strings.Join(rows, ", ") + "]"
	return mathSpec(mat,
		fmt.Sprintf("Compute the determinant of the matrix %s.", mat),
		fmt.Sprintf("What is det(A) for A = %s?", mat),
		fmt.Sprintf("计算矩阵 %s 的行列式。", mat),
		fmt.Sprintf("已知 A = %s，求 det(A)。", mat),
		fmt.Sprintf("import sympy as sp\nprint(sp.Matrix(%s).det())", mat),
		fmt.Sprintf("The determinant is %d.", d), fmt.Sprintf("行列式的值为 %d。", d), answerInt(d)), nil
}

func buildPrimes(c *bctx) ([]spec, error) {
	n := 1000 * (1 + c.rng.IntN(30))
	sieve := make([]bool, n+1)
	count := 0
	for i := 2; i <= n; i++ {
		if !sieve[i] {
			count++
			for j := i * i; j <= n; j += i {
				sieve[j] = true
			}
		}
	}
	return mathSpec(fmt.Sprint(n),
		fmt.Sprintf("How many prime numbers are there that are less than or equal to %d?", n),
		fmt.Sprintf("Count the primes up to %d (inclusive).", n),
		fmt.Sprintf("不超过 %d 的质数有多少个？", n),
		fmt.Sprintf("统计 1 到 %d 之间（含）质数的个数。", n),
		fmt.Sprintf("import sympy as sp\nprint(sp.primepi(%d))", n),
		fmt.Sprintf("There are %d primes up to %d.", count, n), fmt.Sprintf("不超过 %d 的质数共有 %d 个。", n, count), answerInt(count)), nil
}

func buildGCD(c *bctx) ([]spec, error) {
	g := int64(2 + c.rng.IntN(500))
	a := g * int64(100+c.rng.IntN(9000))
	b := g * int64(100+c.rng.IntN(9000))
	ga := new(big.Int).GCD(nil, nil, big.NewInt(a), big.NewInt(b))
	l := new(big.Int).Div(new(big.Int).Mul(big.NewInt(a), big.NewInt(b)), ga)
	return mathSpec(fmt.Sprintf("%d:%d", a, b),
		fmt.Sprintf("Find the greatest common divisor and the least common multiple of %d and %d.", a, b),
		fmt.Sprintf("What are gcd(%d, %d) and lcm(%d, %d)?", a, b, a, b),
		fmt.Sprintf("求 %d 和 %d 的最大公约数和最小公倍数。", a, b),
		fmt.Sprintf("计算 gcd(%d, %d) 与 lcm(%d, %d)。", a, b, a, b),
		fmt.Sprintf("import math\nprint(math.gcd(%d, %d), math.lcm(%d, %d))", a, b, a, b),
		fmt.Sprintf("gcd = %s, lcm = %s.", ga, l), fmt.Sprintf("最大公约数为 %s，最小公倍数为 %s。", ga, l),
		answerInt(int(ga.Int64())), bigAnswer(l)), nil
}

// kx writes k·x the way a person does: x for 1, 3x for 3.
func kx(k int) string {
	if k == 1 {
		return "x"
	}
	return fmt.Sprintf("%dx", k)
}
