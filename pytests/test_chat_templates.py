"""Every row renders through tokenizer.apply_chat_template with the chat
templates of tool-calling model families, as README's snippet does it; the
templates are TRL's copies, shipped in its wheel."""

import json

import pytest

import tiny
from conftest import run_snippet

# Families whose templates take a row's messages as they are.
AS_IS = ["qwen2_5", "qwen3", "qwen3_6", "glm4moe", "gemma4", "lfm2_2_5", "nemotron_3_nano"]
# Families whose templates test whether a message has a tool_calls key at all:
# every Parquet row has every field, so README's snippet drops empty ones.
DROP_EMPTY = ["llama3_1", "gptoss"]


def escaped(s: str) -> list[str]:
    """How a template may write a string: as it is or trimmed, or inside JSON."""
    return [s, s.strip(), json.dumps(s, ensure_ascii=False)[1:-1], json.dumps(s)[1:-1]]


def shown(s: str, text: str) -> bool:
    return any(form in text for form in escaped(s))


def render_all(workdir, fmt, family):
    ns = run_snippet("load")
    ds = ns["ds"]
    ns["tokenizer"] = tiny.tokenizer(ds, tiny.chat_template(family))
    texts = []
    for i in range(len(ds)):
        if family in DROP_EMPTY:
            ns["row"] = ds[i]
            run_snippet("render-drop-empty", ns)
        else:
            ns["ds"] = ds.select([i])
            run_snippet("render", ns)
        texts.append((ds[i], ns["text"], ns["tokenizer"]))
    return texts


@pytest.mark.parametrize("family", AS_IS + DROP_EMPTY)
def test_rows_render(workdir, fmt, family):
    for row, text, tok in render_all(workdir, fmt, family):
        msgs = row["messages"]
        assert shown(msgs[0]["content"], text), f"{family}: the system prompt is not in the rendering"
        for m in msgs[1:]:
            # Llama 3.1's and gpt-oss's templates write a call without its turn's text.
            if m["content"] and not (family in DROP_EMPTY and m.get("tool_calls")):
                assert shown(m["content"], text), f"{family}: a {m['role']} message is not in the rendering"
            for call in m["tool_calls"] if fmt == "openai-tools" else []:
                assert shown(call["function"]["arguments"]["code"], text), f"{family}: a call's code is missing"
        if fmt == "openai-tools":
            assert "execute_python" in text
            if family in ("qwen2_5", "qwen3"):
                # arguments is an object, so the template writes it as one
                assert '"arguments": {"code": ' in text, f"{family}: arguments not written as a JSON object"
        else:
            assert "[INFO]This is a Code Interpreter Message:\n" in text
            assert msgs[-1]["content"].startswith("Finished:") and msgs[-1]["content"] in text
        # The BPE reads the rendering back byte for byte.
        assert tok.decode(tok(text, add_special_tokens=False)["input_ids"]) == text
