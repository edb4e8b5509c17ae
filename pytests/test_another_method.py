"""A correct answer computed by another valid method passes the benchmark's
checks: another_method.py answers the answer-checked tasks of a benchmark
built on the built-in corpus without the reference's readers (no pandas,
PyMuPDF for pypdf, lxml for html.parser, the docx's XML for python-docx,
wave and mutagen for pydub), writes the files those tasks ask for with
the csv module, in its own words, and `synth eval` replays
those rollouts in the sandbox and grades them with the real checks."""

import json
import os
import subprocess

import pytest

import another_method
from conftest import REPO, SYNTH, synth

# The templates whose tasks the other method answers; the benchmark is
# built from these alone, so every task is proven and held out.
TEMPLATES = ("table.stat,table.corr,table.nunique,table.shape,table.missing,table.topgroup,"
             "table.sort,table.addcol,table.groupby,table.dropna,table.fillna,table.iqr,table.types,"
             "chart.scatter,text.lines,text.wordcount,text.summary,text.years,text.replace,"
             "pdf.pages,pdf.wordcount,html.title,docx.paragraphs,audio.duration")
# At least this many of them must have tasks the other method attempted.
MIN_TEMPLATES = 22


def sandbox_python() -> str:
    # The locked sandbox environment, never whichever python3 is first on
    # PATH: that one need not have the readers the other method uses.
    py = os.environ.get("SANDBOX_PYTHON") or subprocess.run(
        [str(REPO / "scripts" / "pyenv.sh"), "--python", "sandbox"], capture_output=True, text=True, check=True
    ).stdout.strip()
    missing = [m for m in ("pymupdf", "lxml", "mutagen", "openpyxl") if not another_method.has_module(py, m)]
    if missing:
        msg = "the sandbox's interpreter %s lacks %s: run scripts/pytest.sh (it sets SANDBOX_PYTHON)" % (py, ", ".join(missing))
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return py


def test_another_method_passes(tmp_path):
    if not os.access(SYNTH, os.X_OK):
        pytest.fail(f"{SYNTH} is not built: run scripts/pytest.sh, or go build -o bin/synth ./cmd/synth")
    py = sandbox_python()
    out = tmp_path / "run"
    synth("build", "-o", str(out), "--source", "sample", "--bench-fraction", "1", "--templates", TEMPLATES)
    bench = out / "bench"
    traj = tmp_path / "another.jsonl"
    attempted, crashed = another_method.write(bench, traj, py)
    assert not crashed, "the other method failed to run on: %s" % crashed
    assert len(attempted) >= MIN_TEMPLATES, "only %d templates attempted: %s" % (len(attempted), sorted(attempted))
    indexes = [i for idx in attempted.values() for i in idx]

    res = tmp_path / "eval"
    synth("eval", "--bench", str(bench), "--trajectories", str(traj), "--tasks", ",".join(indexes),
          "--python", py, "-o", str(res))
    results = [json.loads(l) for l in (res / "results.jsonl").read_text(encoding="utf-8").splitlines() if l.strip()]
    assert sorted(r["index"] for r in results) == sorted(indexes)
    failed = {r["index"]: (r["trajectory"].get("final_answer"), r["trajectory"].get("verdict"))
              for r in results if not r["passed"]}
    assert not failed, "correct answers by another method failed:\n" + "\n".join(
        "%s: %s" % (i, json.dumps(v, ensure_ascii=False)[:600]) for i, v in failed.items())
    summary = json.loads((res / "summary.json").read_text(encoding="utf-8"))
    assert summary["passed"] == len(indexes), summary
