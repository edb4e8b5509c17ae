# The static rule on a writer's python checks, run in the sandbox: the
# answer and the messages may be compared with a constant token (a string
# literal with a letter or digit, or a value built from literals) only where
# the comparison is required, never where it opens another way to pass.
#
# A value is "solver" (S) when it derives from answer or messages, and
# "keyed" (K) when it is an S value compared with, searched for or indexed
# by a token. K may stand only as a required condition: a top-level assert's
# test, a conjunct of it (and, not-or, all()), or the whole value of a
# name bound once at the top level. Anywhere else (an if, elif, while,
# ternary, or/and operand, comprehension filter, match case, try body,
# function, or an operand beside another value) it is a branch on a
# constant in the answer. Calls that hide what a check compares (eval, exec,
# getattr, dunder attributes, …) are refused outright.
import ast
import re

_SOLVER = {"answer", "messages"}
_HIDDEN = {"eval", "exec", "compile", "__import__", "getattr", "setattr", "delattr",
           "globals", "locals", "vars", "breakpoint", "exit", "quit"}
_PURE_FUNCS = {"chr", "ord", "str", "bytes", "bytearray", "int", "float", "list", "tuple", "set",
               "frozenset", "dict", "sorted", "reversed", "len", "min", "max", "sum", "abs",
               "round", "bool", "repr", "hex", "oct", "bin", "format", "range", "zip", "map",
               "filter", "enumerate", "ascii"}
_PURE_MODULES = {"base64", "codecs", "binascii", "string", "zlib", "bz2", "lzma", "re",
                 "operator", "functools", "itertools", "math", "hashlib", "json", "struct",
                 "unicodedata", "html", "urllib"}
# Methods through which a string is searched for or compared with another.
_ESCAPE = re.compile(r"\\.|\[(?:\\.|[^\]])*\]", re.S)


def _token_literal(v):
    if isinstance(v, bytes):
        v = v.decode("latin-1")
    if isinstance(v, str):
        return any(ch.isalnum() for ch in _ESCAPE.sub("", v))
    return False


def _bindings(tree):
    """name -> list of (value node or None, top-level?) for every binding."""
    out = {}

    def add(target, value, top):
        for n in ast.walk(target):
            if isinstance(n, ast.Name):
                out.setdefault(n.id, []).append((value, top))

    def visit(stmts, top):
        for st in stmts:
            if isinstance(st, ast.Assign):
                for t in st.targets:
                    add(t, st.value, top and isinstance(t, ast.Name))
            elif isinstance(st, (ast.AnnAssign, ast.AugAssign)):
                add(st.target, st.value if isinstance(st, ast.AnnAssign) else st, False)
            elif isinstance(st, (ast.For, ast.AsyncFor)):
                add(st.target, ("iter", st.iter), False)
            elif isinstance(st, (ast.Import, ast.ImportFrom)):
                for a in st.names:
                    name = (a.asname or a.name).split(".")[0]
                    mod = a.name.split(".")[0] if isinstance(st, ast.Import) else (st.module or "").split(".")[0]
                    out.setdefault(name, []).append((("module", mod), top))
            elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.setdefault(st.name, []).append((("def", st), False))
                if not isinstance(st, ast.ClassDef):
                    for a in st.args.args + st.args.kwonlyargs + st.args.posonlyargs:
                        out.setdefault(a.arg, []).append((("param", st.name), False))
            elif isinstance(st, (ast.With, ast.AsyncWith)):
                for it in st.items:
                    if it.optional_vars is not None:
                        add(it.optional_vars, it.context_expr, False)
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                sub = getattr(st, field, None)
                if sub:
                    visit([s for s in sub if isinstance(s, ast.stmt)] +
                          [b for h in sub if isinstance(h, (ast.ExceptHandler, ast.match_case)) for b in h.body], False)
        return out

    visit(tree.body, True)
    for n in ast.walk(tree):
        if isinstance(n, ast.comprehension):
            add(n.target, ("iter", n.iter), False)
        elif isinstance(n, ast.NamedExpr):
            add(n.target, n.value, False)
        elif isinstance(n, ast.Lambda):
            for a in n.args.args + n.args.kwonlyargs + n.args.posonlyargs:
                out.setdefault(a.arg, []).append((("param", None), False))
    return out


class _Analysis:
    def __init__(self, tree):
        self.binds = _bindings(tree)
        self.calls = {}
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                self.calls.setdefault(n.func.id, []).append(n)
        self.const, self.solver, self.keyed = set(), set(), set()
        self._fix()

    def _value(self, v):
        """The expression a binding takes its value from, or a marker."""
        if isinstance(v, tuple):
            return v
        if isinstance(v, ast.AugAssign):
            return ("aug", v)
        return ("expr", v)

    def _fix(self):
        # Constant names: every binding constant (greatest fixpoint).
        const = set(self.binds)
        changed = True
        while changed:
            changed = False
            for name in list(const):
                for v, _ in self.binds[name]:
                    kind, node = self._value(v)
                    ok = (kind == "expr" and self.is_const(node, const)) or \
                         (kind == "iter" and self.is_const(node, const)) or \
                         (kind == "module" and node in _PURE_MODULES)
                    if not ok:
                        const.discard(name)
                        changed = True
                        break
        self.const = const
        # Solver and keyed names: any binding solver (keyed) (least fixpoint).
        changed = True
        while changed:
            changed = False
            for name, vs in self.binds.items():
                for v, _ in vs:
                    kind, node = self._value(v)
                    if kind == "param" and name not in self.solver and (node is None or any(
                            self.is_solver(x) for c in self.calls.get(node, [])
                            for x in list(c.args) + [k.value for k in c.keywords])):
                        self.solver.add(name)
                        changed = True
                    if kind in ("expr", "iter") and node is not None:
                        if name not in self.solver and self.is_solver(node):
                            self.solver.add(name)
                            changed = True
                        if name not in self.keyed and self.is_keyed(node):
                            self.keyed.add(name)
                            changed = True
                    if kind == "aug" and name not in self.solver and self.is_solver(node.value):
                        self.solver.add(name)
                        changed = True

    def is_const(self, n, const=None):
        const = self.const if const is None else const
        if isinstance(n, ast.Constant):
            return True
        if isinstance(n, ast.Name):
            return n.id in const or n.id in _PURE_FUNCS
        if isinstance(n, (ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)):
            return False
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return all(self.is_const(g.iter, const) for g in n.generators)
        if isinstance(n, ast.Attribute) and n.attr in ("answer", "messages"):
            return False
        return all(self.is_const(c, const) for c in ast.iter_child_nodes(n)
                   if isinstance(c, ast.expr))

    def is_token(self, n):
        """A constant that holds a token: a string with a letter or digit, or
        a value built by a call from literals."""
        if not self.is_const(n):
            return False
        for c in ast.walk(n):
            if isinstance(c, ast.Constant) and _token_literal(c.value):
                return True
            if isinstance(c, ast.Name) and c.id in self.const and self._token_name(c.id, set()):
                return True
            if isinstance(c, ast.Call) and any(isinstance(x, ast.Constant) and isinstance(x.value, (int, float)) and not isinstance(x.value, bool)
                                               and x.value not in (0, 1, -1) for x in ast.walk(c)):
                return True
        return False

    def _token_name(self, name, seen):
        if name in seen:
            return False
        seen.add(name)
        for v, _ in self.binds.get(name, []):
            kind, node = self._value(v)
            if kind in ("expr", "iter") and node is not None and self.is_token(node):
                return True
        return False

    def is_solver(self, n):
        # m['role'], m.role and m.get('role') are set by the harness, not
        # by the solver.
        role = set()
        for c in ast.walk(n):
            if isinstance(c, ast.Subscript) and isinstance(c.slice, ast.Constant) and c.slice.value == "role":
                role.add(id(c.value))
            elif isinstance(c, ast.Attribute) and c.attr == "role":
                role.add(id(c.value))
            elif isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "get" \
                    and c.args and isinstance(c.args[0], ast.Constant) and c.args[0].value == "role":
                role.add(id(c.func.value))
        for c in ast.walk(n):
            if isinstance(c, ast.Name) and id(c) not in role and (c.id in _SOLVER or c.id in self.solver):
                return True
            if isinstance(c, ast.Attribute) and c.attr in ("answer", "messages"):
                return True
        return False

    def keys(self, n):
        """Whether n itself compares, searches or indexes solver data by a token."""
        if isinstance(n, ast.Compare):
            sides = [n.left] + n.comparators
            for a, b in zip(sides, sides[1:]):
                if (self.is_solver(a) and self.is_token(b)) or (self.is_solver(b) and self.is_token(a)):
                    return True
        if isinstance(n, ast.Call):
            args = list(n.args) + [k.value for k in n.keywords]
            solver = any(self.is_solver(a) for a in args) or \
                (isinstance(n.func, ast.Attribute) and self.is_solver(n.func.value))
            token = any(self.is_token(a) for a in args) or self.is_token(n.func) or \
                (isinstance(n.func, ast.Attribute) and self.is_token(n.func.value))
            if solver and token:
                return True
        if isinstance(n, ast.Subscript):
            if self.is_solver(n.slice) and self.is_token(n.value):
                return True
        return False

    def is_keyed(self, n):
        for c in ast.walk(n):
            if isinstance(c, ast.Name) and c.id in self.keyed:
                return True
            if isinstance(c, ast.expr) and self.keys(c):
                return True
        return False


_STATEMENTS = {"If": "an if", "While": "a while loop", "For": "a for loop", "AsyncFor": "a for loop",
               "Try": "a try", "TryStar": "a try", "With": "a with block", "FunctionDef": "a function",
               "AsyncFunctionDef": "a function", "Match": "a match", "AugAssign": "an augmented assignment",
               "AnnAssign": "an annotated assignment", "Raise": "a raise", "Return": "a return"}


def _where(n):
    return "line %d" % getattr(n, "lineno", 0)


def analyze(code):
    """A list of findings: each a short description with its line."""
    if len(code) > 20000:
        return ["the code is longer than 20000 characters"]
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        return ["the code does not parse: %s" % (e,)]
    a = _Analysis(tree)
    found = []

    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _HIDDEN:
            found.append("%s: %s() hides what the check compares" % (_where(n), n.func.id))
        if isinstance(n, ast.Attribute) and (n.attr in _HIDDEN - {"compile"} or n.attr.startswith("__")):
            found.append("%s: .%s hides what the check compares" % (_where(n), n.attr))
        if isinstance(n, ast.Name) and n.id.startswith("__"):
            found.append("%s: %s hides what the check compares" % (_where(n), n.id))
        if isinstance(n, ast.ClassDef):
            found.append("%s: a class in a check" % _where(n))

    def leaf(n):
        # K may be the leaf itself, or sit in it combined with constants only.
        for c in ast.walk(n):
            if isinstance(c, ast.Call):
                kids = list(c.args) + [k.value for k in c.keywords]
                if a.is_keyed(c.func):
                    kids.append(c.func)
            else:
                kids = [k for k in ast.iter_child_nodes(c) if isinstance(k, ast.expr)]
            if isinstance(c, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)) and a.is_keyed(c):
                found.append("%s: a branch on a constant in the answer" % _where(c))
                return
            if isinstance(c, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                for g in c.generators:
                    if any(a.is_keyed(i) for i in g.ifs):
                        found.append("%s: a comprehension filters on a constant in the answer" % _where(c))
                        return
                continue
            keyed = [k for k in kids if a.is_keyed(k)]
            others = [k for k in kids if not a.is_keyed(k) and not a.is_const(k)]
            if keyed and others and not a.keys(c):
                found.append("%s: a constant found in the answer is combined with another value" % _where(c))
                return

    def required(n, positive=True):
        # The conjuncts of a required condition.
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return required(n.operand, not positive)
        if isinstance(n, ast.BoolOp) and isinstance(n.op, ast.And if positive else ast.Or):
            for v in n.values:
                required(v, positive)
            return
        if positive and isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "all" \
                and len(n.args) == 1 and not n.keywords:
            arg = n.args[0]
            if isinstance(arg, (ast.List, ast.Tuple)):
                for e in arg.elts:
                    required(e)
                return
            if isinstance(arg, (ast.GeneratorExp, ast.ListComp)):
                for g in arg.generators:
                    if any(a.is_keyed(i) for i in g.ifs):
                        found.append("%s: a comprehension filters on a constant in the answer" % _where(arg))
                        return
                    if a.is_keyed(g.iter):
                        leaf(g.iter)
                required(arg.elt)
                return
        leaf(n)

    def flat(stmts):
        # Statements whose asserts always run: the top level, and for-loop
        # bodies with neither break, continue nor else.
        for st in stmts:
            if isinstance(st, ast.Assert):
                required(st.test)
                if st.msg is not None and a.is_keyed(st.msg):
                    leaf(st.msg)
            elif isinstance(st, ast.Assign):
                if not a.is_keyed(st.value):
                    continue
                names = [t.id for t in st.targets if isinstance(t, ast.Name)]
                if len(names) != len(st.targets) or any(len(a.binds.get(x, [])) != 1 for x in names):
                    found.append("%s: a constant found in the answer is bound to a name bound elsewhere too" % _where(st))
                elif a.keys(st.value) or isinstance(st.value, ast.Name):
                    pass
                else:
                    leaf(st.value)
            elif isinstance(st, ast.Expr):
                leaf(st.value)
            elif isinstance(st, (ast.For, ast.AsyncFor)) and not st.orelse and not any(
                    isinstance(x, (ast.Break, ast.Continue)) for x in ast.walk(st)) and not a.is_keyed(st.iter):
                flat(st.body)
            elif isinstance(st, (ast.With, ast.AsyncWith)) and all(
                    isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Name)
                    and i.context_expr.func.id == "open" for i in st.items):
                flat(st.body)
            elif isinstance(st, (ast.Import, ast.ImportFrom, ast.Pass, ast.Delete, ast.Global, ast.Nonlocal)):
                pass
            else:
                nested(st)

    def nested(st):
        # Inside a branch, a loop that may stop, a try or a function: any
        # keyed value is a branch on a constant in the answer.
        if isinstance(st, ast.Match) and a.is_solver(st.subject):
            for c in st.cases:
                for p in ast.walk(c.pattern):
                    if isinstance(p, ast.MatchValue) and a.is_token(p.value) or \
                            isinstance(p, ast.MatchSingleton) and isinstance(p.value, str):
                        found.append("%s: match on the answer against a constant" % _where(st))
                        return
        for c in ast.walk(st):
            if isinstance(c, ast.expr) and a.keys(c) or isinstance(c, ast.Name) and c.id in a.keyed:
                kind = _STATEMENTS.get(type(st).__name__, "a statement")
                found.append("%s: a constant in the answer decides %s" % (_where(c), kind))
                return
        for c in ast.walk(st):
            if isinstance(c, ast.comprehension) and any(a.is_keyed(i) for i in c.ifs):
                found.append("%s: a comprehension filters on a constant in the answer" % _where(c))
                return

    flat(tree.body)
    return list(dict.fromkeys(found))
