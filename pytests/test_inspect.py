"""synth eval's results, exported with synth eval export --format inspect,
read back by inspect_ai itself: every rollout a sample with its messages,
its score and the checks' messages, as results.jsonl and summary.json hold
them."""

import json
from pathlib import Path

import pytest

from conftest import REPO, synth

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
