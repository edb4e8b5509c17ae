"""Fixtures of the Python-side tests: synth's own output, built once per
session with bin/synth, and the Python snippets README.md and the manual
(docs/) give users.

Run them with scripts/pytest.sh (make pytest), which builds the locked
environment (pyenv/pytest.lock) and bin/synth first."""

import os
import random
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SYNTH = os.environ.get("SYNTH_BIN", str(REPO / "bin" / "synth"))
FORMATS = ("pybench", "openai-tools")
# Templates that give rows with input files (csv, txt), without any (math),
# with a chart written under output/ and with a failed cell that is fixed.
# math.gcd and program.function read no file: the builds ask for them with --fileless.
TEMPLATES = "chart.pie,text.replace,math.gcd,program.function"


def write_inputs(folder: Path) -> None:
    """A small CSV and a text with non-ASCII words, the files synth collects."""
    folder.mkdir(parents=True)
    rnd = random.Random(1)
    rows = ["city,month,temp,rain"]
    for i in range(40):
        city = rnd.choice(["Oslo", "Lima", "Kyiv", "Zürich"])
        rows.append(f"{city},{1 + i % 12},{rnd.uniform(-5, 30):.2f},{rnd.randint(0, 40)}")
    (folder / "weather.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    words = "the cat sat on the mat while the dog — “quoted” — ran to the café and back again".split()
    lines = [" ".join(rnd.choice(words) for _ in range(12)) for _ in range(30)]
    (folder / "notes.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def synth(*args: str, timeout: float = 600) -> str:
    """Runs bin/synth and returns its output; a failure fails the test with it."""
    proc = subprocess.run([SYNTH, *args], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        pytest.fail(f"synth {' '.join(args)} exited {proc.returncode}:\n{proc.stdout[-2000:]}{proc.stderr[-3000:]}")
    return proc.stdout


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> dict:
    """One run directory per message format, built in parallel with the
    offline reference teacher, each with its dataset exported as Arrow."""
    if not os.access(SYNTH, os.X_OK):
        pytest.fail(f"{SYNTH} is not built: run scripts/pytest.sh, or go build -o bin/synth ./cmd/synth")
    base = tmp_path_factory.mktemp("synth")
    src = base / "inputs"
    write_inputs(src)
    procs = {}
    for fmt in FORMATS:
        out = base / fmt
        cmd = [SYNTH, "build", "-o", str(out), "--format", fmt, "--bench-fraction", "0",
               "--source", f"local:{src}", "--templates", TEMPLATES, "--fileless"]
        procs[fmt] = (out, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    for fmt, (out, proc) in procs.items():
        log, _ = proc.communicate(timeout=600)
        if proc.returncode != 0:
            pytest.fail(f"synth build --format {fmt} exited {proc.returncode}:\n{log[-3000:]}")
    for fmt, (out, _) in procs.items():
        synth("export", str(out), "--format", "arrow")
    return {fmt: out for fmt, (out, _) in procs.items()}


@pytest.fixture(params=FORMATS)
def fmt(request) -> str:
    return request.param


@pytest.fixture
def workdir(runs, fmt, tmp_path, monkeypatch) -> Path:
    """A folder where README's snippets run as written: out is the run of
    the format under test."""
    (tmp_path / "out").symlink_to(runs[fmt])
    monkeypatch.chdir(tmp_path)
    return tmp_path


def readme_snippet(name: str) -> str:
    """The python block README.md or a page of the manual (docs/*.md) marks
    with <!-- pytests:NAME -->."""
    for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        m = re.search(r"<!-- pytests:" + re.escape(name) + r" -->\s*```python\n(.*?)```", text, re.S)
        if m:
            return m.group(1)
    pytest.fail(f"neither README.md nor docs/*.md has a python block marked <!-- pytests:{name} -->")


def run_snippet(name: str, ns: dict | None = None) -> dict:
    """Runs README's snippet NAME in namespace ns (a fresh one by default)."""
    ns = {} if ns is None else ns
    exec(compile(readme_snippet(name), f"README.md:{name}", "exec"), ns)
    return ns
