"""Extract PyBench's test_task_N functions from a tests.py as standalone checks.

Reads the path of tests.py from argv[1]; writes JSON to stdout:
{"error": str|null, "tests": {N: {"name", "code", "undefined", "requires", "outputs"}}}.
Each code is self-contained: the imports, module-level helpers and
constants the test uses (transitively), the test itself, and a call
`test_task_N(messages)` whose False return counts as a failure.
"""
import ast
import builtins
import json
import re
import sys

CORE = {"pandas", "numpy", "matplotlib", "openpyxl", "PIL", "scipy", "sklearn", "sympy", "pypdf"}
STDLIB = set(getattr(sys, "stdlib_module_names", ())) | set(sys.builtin_module_names)
TEST = re.compile(r"^test_task_(\w+)$")


def bound_names(node):
    """Names a module-level statement binds."""
    out = set()
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        for a in node.names:
            if a.name == "*":
                continue
            out.add(a.asname or a.name.split(".")[0])
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        out.add(node.name)
    elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    out.add(n.id)
    return out


def loaded_names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def local_names(fn):
    """Names bound inside a function: parameters, assignments, loops, imports, comprehensions."""
    out = set()
    a = fn.args
    for arg in a.posonlyargs + a.args + a.kwonlyargs:
        out.add(arg.arg)
    for arg in (a.vararg, a.kwarg):
        if arg:
            out.add(arg.arg)
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for al in n.names:
                out.add(al.asname or al.name.split(".")[0])
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not fn:
            out.add(n.name)
            for arg in n.args.args if hasattr(n, "args") else []:
                out.add(arg.arg)
        elif isinstance(n, ast.Lambda):
            for arg in n.args.args:
                out.add(arg.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
    return out


def modules_of(node):
    mods = set()
    if isinstance(node, ast.Import):
        mods = {a.name.split(".")[0] for a in node.names}
    elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        mods = {node.module.split(".")[0]}
    return mods


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8-sig") as f:
        src = f.read()
    try:
        tree = ast.parse(src, filename=path)
    except SyntaxError as e:
        json.dump({"error": f"tests.py line {e.lineno}: {e.msg}", "tests": {}}, sys.stdout)
        return
    defs = {}      # name -> statement that binds it (last wins, as at run time)
    order = {}     # statement -> position
    star = []      # from x import * statements
    for i, node in enumerate(tree.body):
        order[id(node)] = i
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            star.append(node)
        for name in bound_names(node):
            defs[name] = node
    known = set(defs) | set(dir(builtins))
    tests = {}
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        m = TEST.match(node.name)
        if not m:
            continue
        need, seen, undefined = [], set(), set()
        todo = [node]
        while todo:
            stmt = todo.pop()
            if id(stmt) in seen:
                continue
            seen.add(id(stmt))
            need.append(stmt)
            names = loaded_names(stmt)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names -= local_names(stmt)
            for n in sorted(names):
                if n in defs:
                    todo.append(defs[n])
                elif n not in known:
                    undefined.add(n)
        need += star
        need.sort(key=lambda s: order[id(s)])
        requires = set()
        for s in need:
            requires |= modules_of(s)
        requires = sorted(r for r in requires if r not in STDLIB and r not in CORE)
        outputs = sorted({c.value for c in ast.walk(node)
                          if isinstance(c, ast.Constant) and isinstance(c.value, str)
                          and re.match(r"^(\./)?output/\S+$", c.value)})
        body = "\n\n".join(ast.get_source_segment(src, s) for s in need)
        call = (f"\n\n_result = {node.name}(messages)\n"
                f"assert _result is not False, \"{node.name} returned False\"\n")
        tests[m.group(1)] = {
            "name": node.name,
            "code": body + call,
            "undefined": [] if star else sorted(undefined),
            "requires": requires,
            "outputs": outputs,
        }
    json.dump({"error": None, "tests": tests}, sys.stdout, ensure_ascii=False)


main()
