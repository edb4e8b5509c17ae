"""README's loading snippet, run on both formats: datasets (Parquet and the
Arrow export), pandas with pyarrow and polars see the rows DuckDB sees, with
the features README documents."""

import numpy as np
from datasets import Features, List, Value

from conftest import run_snippet

STR = Value("string")

MESSAGE = {"role": STR, "content": STR}
TOOL_MESSAGE = {
    **MESSAGE,
    "tool_calls": List({"id": STR, "type": STR,
                        "function": {"name": STR, "arguments": {"code": STR}}}),
    "tool_call_id": STR,
    "name": STR,
}
TOOL = {"type": STR, "function": {"name": STR, "description": STR, "parameters": {
    "type": STR, "properties": {"code": {"type": STR, "description": STR}}, "required": List(STR)}}}


def expected_features(fmt: str) -> Features:
    """The features README's "Using the data" states for each format."""
    tools = List(TOOL) if fmt == "openai-tools" else STR
    return Features({
        "messages": List(TOOL_MESSAGE if fmt == "openai-tools" else MESSAGE),
        "tools": tools,
        "tool_choices": STR,
        "id": STR,
        "task_id": STR,
        "category": STR,
        "subcategory": STR,
        "file_types": List(STR),
        "teacher": STR,
        "turns": Value("int32"),
        "tokens": Value("int64"),
        "passed": Value("bool"),
        "verdict_class": STR,
    })


def plain(v):
    """Python values from what pandas gives (numpy arrays and scalars; a
    missing string is NaN in pandas 3's str dtype, as README says)."""
    if isinstance(v, float) and v != v:
        return None
    if isinstance(v, np.ndarray):
        return [plain(x) for x in v]
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return v.item()
    return v


def by_id(rows):
    return sorted((plain(r) for r in rows), key=lambda r: r["id"])


def test_readers_agree_with_duckdb(workdir, fmt):
    ns = run_snippet("load")
    db = ns["db"]
    want = by_id(dict(zip(db.columns, r)) for r in db.fetchall())
    assert len(want) >= 10, "the fixture dataset is too small to say much"
    readers = {
        "datasets.load_dataset": ns["ds"].to_list(),
        "datasets.load_from_disk": ns["arrow"].to_list(),
        "pandas": ns["df"].to_dict("records"),
        "polars": ns["pl"].to_dicts(),
    }
    for name, rows in readers.items():
        got = by_id(rows)
        assert [r["id"] for r in got] == [r["id"] for r in want], f"{name}: other rows than DuckDB"
        for g, w in zip(got, want):
            assert g == w, f"{name}: row {w['id']} differs from DuckDB's"


def test_features_as_readme_documents(workdir, fmt):
    ns = run_snippet("load")
    want = expected_features(fmt)
    assert ns["ds"].features == want, f"load_dataset features:\n{ns['ds'].features}\nREADME:\n{want}"
    assert ns["arrow"].features == want, f"load_from_disk features:\n{ns['arrow'].features}\nREADME:\n{want}"


def test_values_as_readme_documents(workdir, fmt):
    ds = run_snippet("load")["ds"]
    calls = 0
    for row in ds:
        msgs = row["messages"]
        assert msgs[0]["role"] == "system"
        assert msgs[-1]["role"] == "assistant"
        assert row["tool_choices"] == "auto"
        assert row["turns"] == sum(m["role"] == "assistant" for m in msgs)
        if fmt == "pybench":
            assert row["tools"] is None
            assert msgs[-1]["content"].startswith("Finished:")
            for m in msgs[3:]:
                if m["role"] == "user":
                    assert m["content"].startswith("[INFO]This is a Code Interpreter Message:\n")
            continue
        assert [t["function"]["name"] for t in row["tools"]] == ["execute_python"]
        assert msgs[-1]["tool_calls"] == [], "the last assistant turn answers without a call"
        for i, m in enumerate(msgs):
            for call in m["tool_calls"]:
                calls += 1
                assert call["type"] == "function" and call["function"]["name"] == "execute_python"
                args = call["function"]["arguments"]
                assert isinstance(args, dict) and isinstance(args["code"], str) and args["code"].strip()
                answer = msgs[i + 1]
                assert answer["role"] == "tool" and answer["tool_call_id"] == call["id"]
                assert answer["name"] == "execute_python"
    if fmt == "openai-tools":
        assert calls > 0
