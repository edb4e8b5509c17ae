"""Prefix preservation (prefix.py): a template that only appends keeps
every row, one that rewrites earlier turns keeps none, the real templates
shipped in trl are measured on synth's rows of both formats, and the card
gets the figures once, however often the script runs."""

import json

import pytest

import prefix
import tiny

ROWS = [{"id": f"r{i}", "tools": None, "messages": [
    {"role": "system", "content": "You solve tasks.", "tool_calls": [], "tool_call_id": None},
    {"role": "user", "content": f"Sum {i} and 2"},
    {"role": "assistant", "content": "Analyse: add them\n```python\nprint(%d+2)\n```" % i},
    {"role": "user", "content": f"[INFO]This is a Code Interpreter Message:\n{i + 2}"},
    {"role": "assistant", "content": f"Finished: {i + 2}"},
]} for i in range(4)]

APPEND_ONLY = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
# Rewrites history: only the last assistant turn keeps its text, as templates
# that strip earlier reasoning do.
REWRITES = ("{% for m in messages %}<|im_start|>{{ m.role }}\n"
            "{% if m.role == 'assistant' and not loop.last %}[earlier]{% else %}{{ m.content }}{% endif %}"
            "<|im_end|>\n{% endfor %}")


@pytest.mark.parametrize("template,want", [(APPEND_ONLY, True), (REWRITES, False)])
def test_marks_rows(template, want):
    tok = tiny.tokenizer(ROWS, template)
    for row in ROWS:
        ok, why = prefix.preserves(tok, row)
        assert ok == want, f"{row['id']}: preserved={ok} ({why})"
        assert ok or "not an extension" in why


def test_real_templates_on_synths_rows(workdir, fmt):
    from datasets import load_dataset

    ds = load_dataset("parquet", data_files="out/dataset/data/train-*.parquet", split="train")
    rows = list(ds)
    result = prefix.measure(rows)
    assert set(result) == set(prefix.FAMILIES)
    for fam, r in result.items():
        assert r["rows"] == len(rows) and 0 <= r["preserved"] <= len(rows), (fam, r)
        assert (r["preserved"] == len(rows)) == (r["first_break"] == ""), (fam, r)
    print(fmt, {f: f"{100 * r['share']:.0f}%" for f, r in result.items()})


def test_annotate_replaces_its_section(tmp_path):
    placeholder = f"{prefix.BEGIN}\n## Chat templates: prefix preservation\n\nNot measured.\n\n{prefix.END}\n\n"
    (tmp_path / "README.md").write_text("# d\n\n" + placeholder + "## Provenance\n\n- x\n", encoding="utf-8")
    result = prefix.measure(ROWS, families=["qwen2_5"])
    for _ in range(2):
        prefix.annotate(tmp_path, result, prefix.versions())
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert card.count("## Chat templates: prefix preservation") == 1
    assert card.index("prefix preservation") < card.index("## Provenance")
    assert "| qwen2_5 |" in card and "Not measured." not in card
    assert json.loads((tmp_path / "prefix.json").read_text())["templates"]["qwen2_5"]["rows"] == 4
