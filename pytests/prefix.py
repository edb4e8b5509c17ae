"""Prefix preservation of dataset rows under chat templates.

A chat template is prefix-preserving on a row when, for every k from the
first user message on, the tokens of messages[:k] rendered are a prefix of
the tokens of messages[:k+1] rendered: then the tokens a model produced turn by turn are the tokens a
trainer renders from the row ("retokenization drift" otherwise).

The templates are TRL's copies of model families' chat templates, shipped
inside the installed trl package; the tokenizer is a byte-level BPE trained
here on the rows (tiny.tokenizer), so nothing is downloaded. The figure
depends on the template, not on the vocabulary, as long as the vocabulary
is a byte-level BPE: a merge can still join text across a boundary, which
this measure counts as a break, as a trainer would see it.

As a script (scripts/prefix.sh DATASET_DIR, in the rows environment:
transformers, tokenizers and trl without torch) it measures a synth dataset,
writes prefix.json beside its card and puts a "Chat templates" section in
its README.md (replacing an earlier one).
"""

import json
import sys
from pathlib import Path

import tiny

# Tool-calling families whose templates render synth's rows (see
# test_chat_templates.py).
FAMILIES = ["qwen2_5", "qwen3", "qwen3_6", "glm4moe", "gemma4", "lfm2_2_5", "nemotron_3_nano", "llama3_1", "gptoss"]

BEGIN, END = "<!-- prefix-preservation -->", "<!-- /prefix-preservation -->"


def clean(m: dict) -> dict:
    """A message without its empty fields: Parquet gives every row every
    field, and some templates test whether a key is there at all."""
    return {k: v for k, v in m.items() if v is not None and v != []}


def tools_of(row):
    """The row's tool schemas when they are structured (openai-tools);
    None for JSON text (pybench), whose turns call no tool."""
    t = row.get("tools")
    return t if isinstance(t, list) else None


def preserves(tok, row) -> tuple[bool, str]:
    """Whether every prefix of row's messages renders to a token prefix of
    the next, and where it first does not."""
    msgs = [clean(m) for m in row["messages"]]
    tools = tools_of(row)
    prev = None
    # A conversation renders from its first user message on: prefixes of
    # system messages alone are not compared (some templates refuse them).
    first = next((i for i, m in enumerate(msgs) if m["role"] == "user"), 0)
    for k in range(first + 1, len(msgs) + 1):
        try:
            text = tok.apply_chat_template(msgs[:k], tools=tools, tokenize=False)
        except Exception as e:  # a template that refuses a prefix breaks the row
            return False, f"messages[:{k}] does not render: {type(e).__name__}: {str(e)[:80]}"
        ids = tok(text, add_special_tokens=False)["input_ids"]
        if prev is not None and ids[: len(prev)] != prev:
            return False, f"messages[:{k}] is not an extension of messages[:{k - 1}] ({msgs[k - 1]['role']} message)"
        prev = ids
    return True, ""


def measure(rows, families=FAMILIES) -> dict:
    """Per family: rows, rows preserved, share, and the first break seen."""
    out = {}
    for fam in families:
        tok = tiny.tokenizer(rows, tiny.chat_template(fam))
        kept, first = 0, ""
        for row in rows:
            ok, why = preserves(tok, row)
            kept += ok
            if not ok and not first:
                first = f"{row['id']}: {why}"
        out[fam] = {"rows": len(rows), "preserved": kept, "share": kept / len(rows) if rows else 0.0,
                    "first_break": first}
    return out


def versions() -> dict:
    import tokenizers
    import transformers
    import trl

    return {"transformers": transformers.__version__, "trl": trl.__version__, "tokenizers": tokenizers.__version__}


def section(result: dict, ver: dict) -> str:
    lines = [BEGIN, "## Chat templates: prefix preservation", "",
             "Share of rows for which rendering every prefix of `messages` from the first user message on (empty fields dropped; `tools` "
             "passed when structured) gives a token prefix of the next prefix's rendering, under TRL's "
             f"copies of each family's chat template (trl {ver['trl']}, transformers {ver['transformers']}, "
             "a byte-level BPE trained locally on the rows; nothing downloaded). A row that is not "
             "preserved trains on tokens other than the ones its turns were generated as. Measured by "
             "`scripts/prefix.sh` after the build, not by synth itself; figures in `prefix.json`.", "",
             "| template | rows preserved | share | first break |", "|---|---:|---:|---|"]
    for fam, r in result.items():
        brk = r["first_break"].replace("|", "\\|") or "–"
        lines.append(f"| {fam} | {r['preserved']} of {r['rows']} | {100 * r['share']:.1f}% | {brk} |")
    return "\n".join(lines + ["", END, ""])


def annotate(dataset_dir: Path, result: dict, ver: dict) -> None:
    """Writes prefix.json and the card's section into a synth dataset dir."""
    (dataset_dir / "prefix.json").write_text(json.dumps({"versions": ver, "templates": result}, indent=2) + "\n")
    card = dataset_dir / "README.md"
    text = card.read_text(encoding="utf-8")
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + rest.split(END, 1)[1].lstrip("\n")
    marker = "## Provenance"
    text = text.replace(marker, section(result, ver) + "\n" + marker, 1) if marker in text else text + "\n" + section(result, ver)
    card.write_text(text, encoding="utf-8")


def main(argv) -> int:
    if len(argv) != 2:
        print("usage: prefix.py DATASET_DIR (a synth dataset: README.md and data/*.parquet)", file=sys.stderr)
        return 2
    import pyarrow.parquet as pq

    d = Path(argv[1])
    shards = sorted(str(p) for p in (d / "data").glob("train-*.parquet"))
    if not shards or not (d / "README.md").exists():
        print(f"prefix.py: {d} is not a synth dataset (README.md and data/train-*.parquet)", file=sys.stderr)
        return 1
    rows = [r for s in shards for r in pq.read_table(s).to_pylist()]
    result = measure(rows)
    annotate(d, result, versions())
    for fam, r in result.items():
        print(f"{fam:18} {r['preserved']:6d} of {r['rows']:6d} rows  {100 * r['share']:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
