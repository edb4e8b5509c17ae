
# The wrapper a python check runs in when its conditions are traced
# (proof.Untested). It instruments the check's source (SRC, set above),
# runs it on this case as the verifier would, records the truth of each
# condition that reads the answer, and always fails with one line after
# the mark: {"ok": the check's own verdict, "seen": {id: "T", "F" or "TF"},
# "meta": {id: [role, line, harmless if never true, harmless if never
# false]}}.
import ast as _cov_ast
import json as _cov_json


def _cov_mentions(node, names):
    return any(isinstance(n, _cov_ast.Name) and n.id in names for n in _cov_ast.walk(node))


def _cov_tainted(tree):
    names = {"answer", "messages"}
    while True:
        before = len(names)
        for n in _cov_ast.walk(tree):
            value, targets = None, []
            if isinstance(n, (_cov_ast.Assign, _cov_ast.AnnAssign, _cov_ast.AugAssign, _cov_ast.NamedExpr)):
                value, targets = n.value, (n.targets if isinstance(n, _cov_ast.Assign) else [n.target])
            elif isinstance(n, (_cov_ast.For, _cov_ast.comprehension)):
                value, targets = n.iter, [n.target]
            if value is not None and _cov_mentions(value, names):
                for t in targets:
                    names |= {x.id for x in _cov_ast.walk(t) if isinstance(x, _cov_ast.Name)}
        if len(names) == before:
            return names


def _cov_checks(stmts):
    return any(isinstance(n, (_cov_ast.Assert, _cov_ast.Raise)) for s in stmts for n in _cov_ast.walk(s))


def _cov_harmless(branch, other):
    """Whether leaving branch unexplored can hide no pass: it only fails,
    or it is empty and skipping the other branch skips no assertion."""
    body = [s for s in branch if not isinstance(s, _cov_ast.Pass)]
    if body:
        return all(isinstance(s, (_cov_ast.Assert, _cov_ast.Raise)) for s in body)
    return not _cov_checks(other)


class _CovTracer(_cov_ast.NodeTransformer):
    def __init__(self, names):
        self.names, self.meta = names, {}

    def _wrap(self, node, role, never_true=False, never_false=False):
        i = str(len(self.meta))
        self.meta[i] = [role, getattr(node, "lineno", 0), never_true, never_false]
        return _cov_ast.Call(func=_cov_ast.Name(id="_cov_rec", ctx=_cov_ast.Load()),
                             args=[_cov_ast.Constant(value=i), node], keywords=[])

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, _cov_ast.Or):
            node.values = [self._wrap(v, "or") if _cov_mentions(v, self.names) else v for v in node.values]
        return node

    def _branch(self, node):
        self.generic_visit(node)
        if _cov_mentions(node.test, self.names):
            node.test = self._wrap(node.test, "if", _cov_harmless(node.body, node.orelse), _cov_harmless(node.orelse, node.body))
        return node

    visit_If = _branch
    visit_While = _branch

    def visit_IfExp(self, node):
        self.generic_visit(node)
        if _cov_mentions(node.test, self.names):
            node.test = self._wrap(node.test, "ifexp")
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        for side in ("left", "right"):
            v = getattr(node, side)
            if isinstance(v, _cov_ast.Compare) and _cov_mentions(v, self.names):
                setattr(node, side, self._wrap(v, "arith"))
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.slice, _cov_ast.Compare) and _cov_mentions(node.slice, self.names):
            node.slice = self._wrap(node.slice, "arith")
        return node


_cov_seen = {}


def _cov_rec(i, v):
    try:
        b = bool(v)
    except Exception:
        return v
    s = _cov_seen.get(i, "")
    _cov_seen[i] = s if ("T" if b else "F") in s else s + ("T" if b else "F")
    return v


_cov_tree = _cov_ast.parse(SRC)
_cov_tr = _CovTracer(_cov_tainted(_cov_tree))
_cov_tree = _cov_ast.fix_missing_locations(_cov_tr.visit(_cov_tree))
_cov_env = {k: v for k, v in globals().items() if not k.startswith("_cov") and k != "SRC"}
_cov_env["_cov_rec"] = _cov_rec
try:
    exec(compile(_cov_tree, "<check>", "exec"), _cov_env)
    _cov_ok = True
except Exception:
    _cov_ok = False
raise AssertionError(MARK + _cov_json.dumps({"ok": _cov_ok, "seen": _cov_seen, "meta": _cov_tr.meta}))
