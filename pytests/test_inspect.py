"""synth eval's results, exported with synth eval export --format inspect,
read back by inspect_ai itself: every rollout a sample with its messages,
its score and the checks' messages, as results.jsonl and summary.json hold
them; README's snippet reads it, and inspect view lists it and serves it."""

import json
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO, run_snippet, synth

BENCH = REPO / "pipeline" / "testdata" / "evalbench"


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("eval") / "empty"
    # The empty teacher fails every task: scores I with failed checks.
    synth("eval", "--bench", str(BENCH), "--teacher", "empty", "-o", str(out), "--max-turns", "2")
    return out


def test_read_eval_log(results):
    from inspect_ai.log import list_eval_logs, read_eval_log

    printed = synth("eval", "export", str(results), "--format", "inspect")
    logs = list_eval_logs(str(results / "inspect"))
    assert len(logs) == 1, f"inspect lists {logs}"
    assert Path(logs[0].name).name in printed
    log = read_eval_log(logs[0])

    summary = json.loads((results / "summary.json").read_text())
    rows = [json.loads(line) for line in (results / "results.jsonl").read_text().splitlines()]
    assert log.status == "success"
    assert log.eval.model == "synth/empty"
    assert log.results.scores[0].metrics["accuracy"].value == summary["pass_rate"]
    assert len(log.samples) == len(rows) == summary["tasks"]

    by_id = {str(r["index"]): r for r in rows}
    for sample in log.samples:
        row = by_id[str(sample.id)]
        traj = row["trajectory"]
        assert sample.epoch == row["sample"] + 1
        assert [(m.role, m.text) for m in sample.messages] == [(m["role"], m["content"]) for m in traj["messages"]]
        assert sample.input[0].role == "system" and sample.input[-1].role == "user"
        score = sample.scores["unit_tests"]
        assert score.value == ("C" if row["passed"] else "I")
        assert score.answer == traj["final_answer"]
        for check in traj["verdict"]["checks"]:
            assert check["message"] in score.explanation
        assert score.metadata["failure"] == row.get("failure", "")


def test_readme_snippet_reads_the_log(results, tmp_path, monkeypatch):
    synth("eval", "export", str(results), "--format", "inspect")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "ref").symlink_to(results)
    monkeypatch.chdir(tmp_path)
    ns = run_snippet("inspect-read")
    summary = json.loads((results / "summary.json").read_text())
    assert ns["accuracy"] == summary["pass_rate"]
    assert len(ns["log"].samples) == summary["tasks"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def test_inspect_view_lists_the_log(results, tmp_path):
    """inspect view --log-dir lists the exported log (the listing its page
    asks for) and serves it whole, on a port of 127.0.0.1 the test stops."""
    log_dir = tmp_path / "inspect"
    synth("eval", "export", str(results), "--format", "inspect", "-o", str(log_dir))
    name = next(log_dir.glob("*.json")).name
    inspect = Path(sys.executable).with_name("inspect")
    port = free_port()
    proc = subprocess.Popen([str(inspect), "view", "--log-dir", str(log_dir), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        base = f"http://127.0.0.1:{port}/api"
        listing = None
        for _ in range(120):  # up to a minute for the server to start
            if proc.poll() is not None:
                pytest.fail(f"inspect view exited {proc.returncode}:\n{proc.stdout.read()[-2000:]}")
            try:
                listing = get_json(f"{base}/log-files")
                break
            except OSError:
                time.sleep(0.5)
        assert listing is not None, "inspect view did not answer within a minute"
        names = [Path(urllib.parse.urlparse(f["name"]).path).name for f in listing["files"]]
        assert names == [name], listing
        assert listing["files"][0]["task"] == "evalbench"
        log = get_json(f"{base}/logs/{urllib.parse.quote(listing['files'][0]['name'], safe='')}")
        summary = json.loads((results / "summary.json").read_text())
        assert len(log["samples"]) == summary["tasks"]
        assert log["results"]["scores"][0]["metrics"]["accuracy"]["value"] == summary["pass_rate"]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
