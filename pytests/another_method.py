"""Another method: answers to a synth benchmark's answer-checked tasks,
computed without the reference's path, as trajectories `synth eval
--trajectories` replays and grades.

For each task of a template it knows, solution() writes Python that reads
the input another way than the reference does (the csv module, openpyxl
and json instead of pandas; PyMuPDF instead of pypdf; lxml instead of
html.parser; the docx's XML instead of python-docx; wave and mutagen
instead of pydub; plain Python for text) and prints one sentence phrased
unlike the reference's answer (other word order, three decimals where the
query does not ask for two). write() runs each solution once with the
sandbox's interpreter on a copy of the benchmark's data/, and records the
printed sentence as the final answer: the answer is what the code printed,
and `synth eval` runs the same code again in the sandbox and grades it.

Tasks of other templates are not attempted, and never counted as passes.

    python pytests/another_method.py BENCH OUT.jsonl [--python PY]

writes OUT.jsonl and prints the attempted task indexes (comma-separated)
for `synth eval --tasks`, and per template how many were attempted."""

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

SYSTEM = "You solve data tasks by writing Python, run in a code interpreter."

# The reader of a table, without pandas: rows of cells, None for a missing
# one. Missing means what a table's reader calls missing by default: an
# empty cell, or one of the usual markers of a missing value (NA, N/A,
# NaN, null, None, #N/A, ...); JSON's null or an absent key.
TABLE_READER = r'''
import csv, json, math, re, statistics
NA = {'', '#N/A', '#N/A N/A', '#NA', '-1.#IND', '-1.#QNAN', '-NaN', '-nan', '1.#IND', '1.#QNAN',
      '<NA>', 'N/A', 'NA', 'NULL', 'NaN', 'None', 'n/a', 'nan', 'null'}
NUM = re.compile(r'\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*|\s*[-+]?(inf|Infinity)\s*')

def cell(v):
    """A cell as a number when it is one, None when missing."""
    if v is None:
        return None
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return None if isinstance(v, float) and math.isnan(v) else float(v)
    s = str(v)
    if s in NA:
        return None
    return float(s) if NUM.fullmatch(s) else s

def jcell(v):
    """A JSON value as a cell: null is missing, a string that writes a
    number is that number (NA markers are text in JSON)."""
    if isinstance(v, str):
        return float(v) if NUM.fullmatch(v) else v
    return cell(v)

def read_table(path, kind, sep=None, header=True, encoding=None):
    """(column names, rows of cells)."""
    if kind == 'xlsx':
        import openpyxl
        ws = openpyxl.load_workbook(path, data_only=True).worksheets[0]
        rows = [list(r) for r in ws.iter_rows(values_only=True)]
        rows = [r for r in rows if any(v is not None for v in r)]
    elif kind == 'json':
        data = json.load(open(path, encoding=encoding or 'utf-8'))
        if isinstance(data, dict):  # {column: {row: value}} or {column: [values]}
            cols = list(data)
            idx = []
            for c in cols:
                for k in (data[c] if isinstance(data[c], dict) else range(len(data[c]))):
                    if k not in idx:
                        idx.append(k)
            rows = [[(data[c].get(k) if isinstance(data[c], dict) else data[c][k]) for c in cols] for k in idx]
            return cols, [[jcell(v) for v in r] for r in rows]
        cols = []
        for rec in data:
            for k in rec:
                if k not in cols:
                    cols.append(k)
        return cols, [[jcell(rec.get(c)) for c in cols] for rec in data]
    else:
        with open(path, newline='', encoding=encoding or 'utf-8') as f:
            text = f.read()
        if text.startswith('\ufeff'):
            text = text[1:]
        rows = [r for r in csv.reader(text.splitlines(), delimiter=sep or (',' if kind == 'csv' else '\t')) if r]
    if header:
        names, body = [str(c) for c in rows[0]], rows[1:]
    else:
        names, body = list(range(len(rows[0]))), rows
    width = len(names)
    body = [list(r[:width]) + [None] * (width - len(r)) for r in body]
    return names, [[cell(v) for v in r] for r in body]

def column(names, rows, name):
    i = names.index(name)
    return [r[i] for r in rows]

def numbers(values):
    out = [v for v in values if v is not None]
    bad = [v for v in out if not isinstance(v, float)]
    assert not bad, 'not numbers: %r' % bad[:3]
    return out
'''


def _read_call(code):
    """The kind of table reader the reference calls and its options."""
    m = re.search(r"pd\.read_(csv|excel|json|parquet)\((.*)\)", code)
    if not m:
        return None
    fn, args = m.group(1), m.group(2)
    opts = {}
    s = re.search(r"sep=('[^']*'|\"[^\"]*\")", args)
    if s:
        opts["sep"] = ast.literal_eval(s.group(1))
    e = re.search(r"encoding=('[^']*'|\"[^\"]*\")", args)
    if e:
        opts["encoding"] = ast.literal_eval(e.group(1))
    if "header=None" in args:
        opts["header"] = False
    if re.search(r"\b(skiprows|index_col|na_values|keep_default_na|thousands|decimal|sheet_name|orient|lines|dtype)=", args):
        return None  # a convention this reader does not follow
    return {"csv": "csv", "excel": "xlsx", "json": "json"}.get(fn), opts


def _subscripts(code):
    """The df[...] column names the code uses, in order."""
    out = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "df":
            if isinstance(node.slice, ast.Constant) and node.slice.value not in out:
                out.append(node.slice.value)
    return out


def _q(name):
    """name as it may stand inside a '...' literal that is %-formatted."""
    s = str(name).replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
    return s.replace("%", "%%")


def _two_decimals(query):
    return bool(re.search(r"two decimals|2 decimals|两位小数", query))


def _fmt(query):
    """How an answer states a float: three decimals unless the query asks for two."""
    return "%.2f" if _two_decimals(query) else "%.3f"


def _table_code(task, body):
    ref = task["reference"]["steps"]
    call = _read_call(ref[0]["code"])
    if not call or not call[0]:
        return None
    kind, opts = call
    f = task["files"][0]
    if f["type"] == "tsv" and "sep" not in opts:
        opts["sep"] = "\t"
    args = ", ".join(["%r" % ("./data/" + f["name"]), "%r" % kind] + ["%s=%r" % kv for kv in opts.items()])
    return TABLE_READER + "names, rows = read_table(%s)\n" % args + body


def _table(task, name):
    steps = task["reference"]["steps"]
    code = "\n".join(s["code"] for s in steps[1:])
    cols = _subscripts(code)
    q = task["query"]
    fmt = _fmt(q)
    if name in WRITES:
        return _written(task, name, code, cols, fmt)
    if name == "table.stat":
        m = re.search(r"\.(mean|median|std|max|min)\(\)", code)
        if not m or not cols:
            return None
        fn = {"mean": "statistics.fmean(x)", "median": "statistics.median(x)", "std": "statistics.stdev(x)",
              "max": "max(x)", "min": "min(x)"}[m.group(1)]
        word = {"mean": "mean", "median": "median", "std": "sample standard deviation", "max": "largest value",
                "min": "smallest value"}[m.group(1)]
        body = ("x = numbers(column(names, rows, %r))\nv = %s\n"
                "print('Over %%d values of %s, the %s comes out at %s.' %% (len(x), v))\n") % (cols[0], fn, _q(cols[0]), word, fmt)
        return _table_code(task, body)
    if name == "table.corr":
        if len(cols) < 2:
            return None
        body = ("a, b = column(names, rows, %r), column(names, rows, %r)\n"
                "pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]\n"
                "r = statistics.correlation(numbers([p[0] for p in pairs]), numbers([p[1] for p in pairs]))\n"
                "print('Pearson r over %%d complete pairs: %s.' %% (len(pairs), r))\n") % (cols[0], cols[1], "%.4f")
        return _table_code(task, body)
    if name == "table.nunique":
        if not cols:
            return None
        body = ("vals = {v for v in column(names, rows, %r) if v is not None}\n"
                "print('%s: %%d different values are present.' %% len(vals))\n") % (cols[0], _q(cols[0]))
        return _table_code(task, body)
    if name == "table.shape":
        body = "print('Columns: %d. Rows: %d.' % (len(names), len(rows)))\n"
        return _table_code(task, body)
    if name == "table.missing":
        body = ("gaps = {n: sum(1 for r in rows if r[i] is None) for i, n in enumerate(names)}\n"
                "where = [n for n in names if gaps[n]]\n"
                "print('Columns with gaps: %s. Missing cells in all: %d.' % (', '.join(map(str, where)), sum(gaps.values())))\n")
        return _table_code(task, body)
    if name == "table.topgroup":
        if not cols:
            return None
        body = ("from collections import Counter\n"
                "vc = Counter(v for v in column(names, rows, %r) if v is not None)\n"
                "(top, n), = vc.most_common(1)\n"
                "top = ('%%g' %% top) if isinstance(top, float) else top\n"
                "print('Most frequent: %%s, in %%d rows.' %% (top, n))\n") % cols[0]
        return _table_code(task, body)
    return None


# Templates whose files the other method writes too.
WRITES = ("table.sort", "table.addcol", "table.groupby", "chart.scatter", "table.dropna", "table.fillna",
          "table.iqr", "table.types", "text.replace")

# Writing a table back with the csv module.
TABLE_WRITER = r'''
import os
def text(v):
    if v is None:
        return ''
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    return str(v)

def write_table(path, names, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f)
        w.writerow(names)
        w.writerows([text(v) for v in r] for r in rows)
'''


def _out(task):
    return "./" + task["outputs"][0]


def _written(task, name, code, cols, fmt):
    """The code of a template that writes a file as well as answering."""
    if not task.get("outputs"):
        return None
    out = _out(task)
    if name == "table.sort" and cols:
        desc = "ascending=False" in code
        body = ("i = names.index(%r)\n"
                "numbers([r[i] for r in rows])\n"
                "have = sorted((r for r in rows if r[i] is not None), key=lambda r: r[i], reverse=%r)\n"
                "rows = have + [r for r in rows if r[i] is None]\n"
                "write_table(%r, names, rows)\n"
                "print('Wrote %%d rows to %s; now on top: %s = %%s.' %% (len(rows), text(rows[0][i])))\n") % (
                    cols[0], desc, out, _q(out), _q(cols[0]))
        return _table_code(task, TABLE_WRITER + body)
    if name == "table.addcol" and len(cols) >= 3:
        new, a, b = cols[0], cols[1], cols[2]
        body = ("ia, ib = names.index(%r), names.index(%r)\n"
                "vals = [r[ia] * r[ib] if r[ia] is not None and r[ib] is not None else None for r in rows]\n"
                "write_table(%r, names + [%r], [r + [v] for r, v in zip(rows, vals)])\n"
                "x = numbers(vals)\n"
                "print('Across %%d rows the new %s column averages %s.' %% (len(x), statistics.fmean(x)))\n") % (
                    a, b, out, new, _q(new), fmt)
        return _table_code(task, TABLE_WRITER + body)
    g = re.search(r"groupby\(((?:'[^']*'|\"[^\"]*\")), as_index=False\)\[((?:'[^']*'|\"[^\"]*\"))\]\.mean\(\)", code)
    if name == "table.groupby" and g:
        key, val = ast.literal_eval(g.group(1)), ast.literal_eval(g.group(2))
        body = ("ik, iv = names.index(%r), names.index(%r)\n"
                "groups = {}\n"
                "for r in rows:\n"
                "    if r[ik] is not None and r[iv] is not None:\n"
                "        groups.setdefault(r[ik], []).append(r[iv])\n"
                "assert all(isinstance(k, str) for k in groups), 'group keys are not all text'\n"
                "means = {k: statistics.fmean(numbers(v)) for k, v in sorted(groups.items())}\n"
                "write_table(%r, [%r, %r], [[k, m] for k, m in means.items()])\n"
                "top = max(means, key=means.get)\n"
                "print('Top of the %%d groups by mean %s: %%s (%s).' %% (len(means), top, means[top]))\n") % (
                    key, val, out, key, val, _q(val), fmt)
        return _table_code(task, TABLE_WRITER + body)
    if name == "table.dropna" and re.search(r"df = df\.dropna\(\)", code):
        body = ("full = [r for r in rows if all(v is not None for v in r)]\n"
                "write_table(%r, names, full)\n"
                "print('%%d of %%d rows have no gap; they are in %s.' %% (len(full), len(rows)))\n") % (out, _q(out))
        return _table_code(task, TABLE_WRITER + body)
    if name == "table.fillna" and cols and ".median()" in code:
        body = ("i = names.index(%r)\n"
                "med = statistics.median(numbers([r[i] for r in rows]))\n"
                "gaps = sum(1 for r in rows if r[i] is None)\n"
                "for r in rows:\n"
                "    if r[i] is None:\n"
                "        r[i] = med\n"
                "write_table(%r, names, rows)\n"
                "print('Filled %%d gaps of %s with the median, %s.' %% (gaps, med))\n") % (cols[0], out, _q(cols[0]), fmt)
        return _table_code(task, TABLE_WRITER + body)
    if name == "table.iqr" and cols:
        body = ("i = names.index(%r)\n"
                "q1, _, q3 = statistics.quantiles(numbers([r[i] for r in rows]), n=4, method='inclusive')\n"
                "lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)\n"
                "keep = [r for r in rows if r[i] is None or lo <= r[i] <= hi]\n"
                "write_table(%r, names, keep)\n"
                "print('Fences %%.4f to %%.4f; outliers removed: %%d.' %% (lo, hi, len(rows) - len(keep)))\n") % (cols[0], out)
        return _table_code(task, TABLE_WRITER + body)
    if name == "table.types" and cols:
        body = ("i = names.index(%r)\n"
                "for r in rows:\n"
                "    if isinstance(r[i], str):\n"
                "        t = ''.join(ch for ch in r[i] if ch not in '$€£¥,' and not ch.isspace())\n"
                "        r[i] = float(t) if t else None\n"
                "write_table(%r, names, rows)\n"
                "print('As numbers, %s adds up to %%.2f.' %% sum(numbers([r[i] for r in rows])))\n") % (cols[0], out, _q(cols[0]))
        return _table_code(task, TABLE_WRITER + body)
    if name == "chart.scatter" and len(cols) >= 2:
        x, y = cols[0], cols[1]
        body = ("a, b = column(names, rows, %r), column(names, rows, %r)\n"
                "pairs = [(u, v) for u, v in zip(a, b) if u is not None and v is not None]\n"
                "xs, ys = numbers([p[0] for p in pairs]), numbers([p[1] for p in pairs])\n"
                "import os, matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
                "fig, ax = plt.subplots(figsize=(6, 4.5))\n"
                "ax.plot(xs, ys, 'o', markersize=4)\nax.set_xlabel(%r)\nax.set_ylabel(%r)\n"
                "os.makedirs(os.path.dirname(%r), exist_ok=True)\nfig.savefig(%r, dpi=100)\n"
                "print('Chart in %s; Pearson r over %%d pairs: %s.' %% (len(pairs), statistics.correlation(xs, ys)))\n") % (
                    x, y, x, y, out, out, _q(out), "%.4f")
        return _table_code(task, body)
    return None


def _path(task):
    return "./data/" + task["files"][0]["name"]


def _text(task, name):
    p = _path(task)
    code = "\n".join(s["code"] for s in task["reference"]["steps"][1:])
    head = "data = open(%r, 'rb').read().decode('utf-8')\n" % p
    if name == "text.replace" and task.get("outputs"):
        m = re.search(r"re\.subn\(r'\\b(\w+)\\b', (\"[^\"]*\"|'[^']*'), text\)", code)
        if not m:
            return None
        word, new = m.group(1), ast.literal_eval(m.group(2))
        out = _out(task)
        # Words as runs of word characters between the rest: a token equal
        # to the word is replaced, whatever its neighbours.
        return head + ("import os, re\n"
                       "parts = re.split(r'(\\w+)', data)\n"
                       "n = sum(1 for p in parts if p == %r)\n"
                       "os.makedirs(os.path.dirname(%r), exist_ok=True)\n"
                       "open(%r, 'w', encoding='utf-8').write(''.join(%r if p == %r else p for p in parts))\n"
                       "print('Replacements made: %%d, written to %s.' %% n)\n") % (word, out, out, new, word, _q(out))
    if name == "text.lines":
        # Lines as the bytes between newlines, each decoded on its own.
        return ("n = sum(1 for line in open(%r, 'rb') if line.decode('utf-8').strip())\n"
                "print('Non-blank lines: %%d.' %% n)\n") % p
    if name == "text.wordcount":
        m = re.search(r'words\.count\(("[^"]*"|\'[^\']*\')\)', code)
        if not m:
            return None
        w = ast.literal_eval(m.group(1))
        return head + ("import re\nn = len(re.findall(r'(?<![A-Za-z])' + re.escape(%r) + r'(?![A-Za-z])', data, re.I))\n"
                       "print('As a whole word, %s occurs %%d times.' %% n)\n") % (w, _q(w))
    if name == "text.summary":
        return head + ("lines = data.replace('\\r\\n', '\\n').split('\\n')\n"
                       "paras, inside = 0, False\n"
                       "for line in lines:\n"
                       "    if line.strip() and not inside:\n"
                       "        paras += 1\n"
                       "    inside = bool(line.strip())\n"
                       "import re\nwords = len(re.findall(r'\\S+', data))\n"
                       "print('Paragraphs: %d; words: %d.' % (paras, words))\n")
    if name == "text.years":
        return head + (
            "import re\n"
            "UNITS = {'m', 'km', 'cm', 'mm', 'metres', 'meters', 'metre', 'meter', 'miles', 'mile', 'mi', 'yards', 'yd', 'feet',\n"
            "         'ft', 'kg', 'g', 'lb', 'lbs', 's', 'sec', 'seconds', 'min', 'minutes', 'h', 'hours', 'ml', 'l', 'kcal',\n"
            "         'cal', 'w', 'kw', 'mb', 'gb', 'px', '%'}\n"
            "found = set()\n"
            "for m in re.finditer(r'[0-9]+(?:[.,][0-9]+)*', data):\n"
            "    tok = m.group(0)\n"
            "    if len(tok) != 4 or not 1500 <= int(tok) <= 2099:\n"
            "        continue\n"
            "    if m.start() and (data[m.start() - 1].isascii() and data[m.start() - 1].isalpha() or data[m.start() - 1] in '_'):\n"
            "        continue\n"
            "    after = re.match(r'[ \\t]*(%|[A-Za-z]+)', data[m.end():m.end() + 12])\n"
            "    if m.end() < len(data) and (data[m.end()].isascii() and data[m.end()].isalpha() or data[m.end()] == '_'):\n"
            "        continue\n"
            "    if after and after.group(1).lower() in UNITS:\n"
            "        continue\n"
            "    found.add(int(tok))\n"
            "print('In order, the document mentions these years: ' + ', '.join(map(str, sorted(found))) + '.')\n")
    return None


def _about_answer(check):
    """Whether a check judges the final answer alone: an answer check, or a
    python check that reads no file the rollout wrote (such as the order of
    the numbers an answer states)."""
    if check["kind"] == "answer":
        return True
    return check["kind"] == "python" and "output/" not in check.get("code", "") and "read_table" not in check.get("code", "")


def solution(task):
    """The other method's code for task, or None when its template is not
    covered or the reference uses a convention it does not follow."""
    name = task["generator"].split(":", 1)[-1].split("@", 1)[0]
    if len(task.get("files") or []) != 1:
        return None
    if name not in WRITES and (task.get("outputs") or not all(_about_answer(c) for c in task["checks"])):
        return None  # tasks that also check files the other method does not write
    p = _path(task)
    if name.startswith("table.") or name == "chart.scatter":
        return _table(task, name)
    if name.startswith("text."):
        return _text(task, name)
    if name == "pdf.pages":
        return ("import pymupdf\ndoc = pymupdf.open(%r)\n"
                "print('Page count: %%d.' %% doc.page_count)\n") % p
    if name == "pdf.wordcount":
        m = re.search(r'text\.count\(("[^"]*"|\'[^\']*\')\)', task["reference"]["steps"][-1]["code"])
        if not m:
            return None
        w = ast.literal_eval(m.group(1))
        return ("import pymupdf, unicodedata\n"
                "text = ''.join(page.get_text() for page in pymupdf.open(%r))\n"
                "flat = ''.join(ch for ch in unicodedata.normalize('NFKC', text) if not ch.isspace()).casefold()\n"
                "print('With whitespace removed, %s turns up %%d times.' %% flat.count(%r))\n") % (p, _q(w), w.casefold())
    if name in ("html.title", "html.links"):
        if name == "html.links":
            return None
        return ("import lxml.html\n"
                "root = lxml.html.fromstring(open(%r, 'rb').read())\n"
                "title = ' '.join(''.join(root.xpath('//title[1]//text()')).split())\n"
                "links = root.xpath('//a[@href]')\n"
                "print('%%d hyperlinks; the title reads \"%%s\".' %% (len(links), title))\n") % p
    if name == "docx.paragraphs":
        return ("import zipfile\nfrom xml.etree import ElementTree as ET\n"
                "W = '{http://schemas.openxmlformats.org/wordprocessingml/2006/main}'\n"
                "body = ET.fromstring(zipfile.ZipFile(%r).read('word/document.xml')).find(W + 'body')\n"
                "texts = [''.join(t.text or '' for t in p.iter(W + 't')) for p in body.findall(W + 'p')]\n"
                "print('Paragraphs holding text: %%d.' %% sum(1 for t in texts if t.strip()))\n") % p
    if name == "audio.duration":
        fmt = _fmt(task["query"])
        if task["files"][0]["type"] == "wav":
            return ("import wave\nwith wave.open(%r) as w:\n    secs = w.getnframes() / w.getframerate()\n"
                    "print('Length in seconds: about %s.' %% secs)\n") % (p, fmt)
        if task["files"][0]["type"] == "mp3":
            return ("from mutagen.mp3 import MP3\nsecs = MP3(%r).info.length\n"
                    "print('Length in seconds: about %s.' %% secs)\n") % (p, fmt)
    return None


def template_of(task):
    return task["generator"].split(":", 1)[-1].split("@", 1)[0]


def has_module(python, name):
    """Whether python imports module name."""
    return subprocess.run([python, "-c", "import " + name], capture_output=True).returncode == 0


def run(code, data, python):
    """What code prints, run with python in a scratch copy of data/: (ok, stdout+stderr)."""
    with tempfile.TemporaryDirectory() as d:
        shutil.copytree(data, os.path.join(d, "data"))
        os.makedirs(os.path.join(d, "output"))
        proc = subprocess.run([python, "-c", code], cwd=d, capture_output=True, text=True, timeout=120)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def write(bench, out, python):
    """Writes out (PyBench-style lines: index and messages) for every task of
    bench the other method attempts. Returns (attempted indexes per
    template, failures of the solver itself as {index: output})."""
    bench = Path(bench)
    attempted, crashed = {}, {}
    tasks = [json.loads(l) for l in (bench / "tasks.jsonl").read_text(encoding="utf-8").splitlines() if l.strip()]
    with open(out, "w", encoding="utf-8") as f:
        for t in tasks:
            code = solution(t)
            if code is None:
                continue
            ok, printed = run(code, bench / "data", python)
            if not ok:
                crashed[t["index"]] = printed[-600:]
                continue
            answer = printed.splitlines()[-1]
            msgs = [{"role": "system", "content": SYSTEM},
                    {"role": "user", "content": t["query"]},
                    {"role": "assistant", "content": "Reading the file another way.\n```python\n%s```" % code},
                    {"role": "user", "content": printed},
                    {"role": "assistant", "content": "Finished: " + answer}]
            f.write(json.dumps({"index": t["index"], "messages": msgs}, ensure_ascii=False) + "\n")
            attempted.setdefault(template_of(t), []).append(t["index"])
    return attempted, crashed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bench")
    ap.add_argument("out")
    ap.add_argument("--python", default=os.environ.get("SANDBOX_PYTHON", sys.executable))
    a = ap.parse_args()
    attempted, crashed = write(a.bench, a.out, a.python)
    for name, idx in sorted(attempted.items()):
        print("%-18s %d" % (name, len(idx)), file=sys.stderr)
    for idx, msg in crashed.items():
        print("solver failed on task %s: %s" % (idx, msg), file=sys.stderr)
    print(",".join(i for idx in attempted.values() for i in idx))


if __name__ == "__main__":
    main()
