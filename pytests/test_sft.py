"""README's SFT snippet trains on both formats on CPU: a tiny causal LM from a
config, a BPE trained offline and Qwen 2.5's chat template (TRL's copy)."""

import json
import math

import tiny
from conftest import readme_snippet, run_snippet

# The settings a test needs on top of README's: a few steps over a handful of
# rows, on CPU, nothing saved or reported.
TEST_ARGS = ("max_steps=30, learning_rate=5e-3, per_device_train_batch_size=2, logging_steps=1, "
             "use_cpu=True, report_to='none', save_strategy='no', seed=0, dataloader_num_workers=0, ")


def train(workdir, rows):
    ns = run_snippet("load")
    ds = ns["ds"].select(range(rows))
    tok = tiny.tokenizer(ns["ds"], tiny.chat_template("qwen2_5"))
    ns.update(ds=ds, tokenizer=tok, model=tiny.causal_lm(tok))
    code = readme_snippet("sft")
    assert code.count("args = SFTConfig(") == 1, "README's SFT snippet no longer builds args = SFTConfig(...)"
    code = code.replace("args = SFTConfig(", "args = SFTConfig(" + TEST_ARGS)
    exec(compile(code, "README.md:sft", "exec"), ns)
    return ns["trainer"], ds, tok


def masked_text(tok, ids, mask):
    """The text of the tokens in the loss, one string per run of them."""
    assert len(ids) == len(mask)
    runs, cur = [], []
    for i, m in zip(ids, mask):
        if m:
            cur.append(i)
        elif cur:
            runs.append(tok.decode(cur))
            cur = []
    if cur:
        runs.append(tok.decode(cur))
    return "\x00".join(runs)


def test_sft_masks_and_learns(workdir, fmt):
    trainer, ds, tok = train(workdir, rows=4)
    train_ds = trainer.train_dataset
    assert len(train_ds) == len(ds)
    for row, ex in zip(ds, train_ds):
        msgs = row["messages"]
        text = tok.decode(ex["input_ids"])
        # TRL folds the assistant mask into labels: -100 is out of the loss
        loss = masked_text(tok, ex["input_ids"], [label != -100 for label in ex["labels"]])
        assert msgs[-1]["content"].strip() in loss, "the final answer is not in the loss"
        assert msgs[0]["content"] in text and msgs[0]["content"][:60] not in loss, "the system prompt is in the loss"
        for m in msgs[1:]:
            if m["role"] == "assistant":
                if fmt == "openai-tools":
                    for call in m["tool_calls"]:
                        assert json.dumps(call["function"]["arguments"]["code"], ensure_ascii=False)[1:-1] in loss
                    assert m["content"].strip() in loss
                else:
                    assert m["content"].strip() in loss
                    assert m is msgs[-1] or "```python" in m["content"]
            else:
                # the query, the file list and every observation stay out of the
                # loss (a short one, like "27", may also be in an assistant turn)
                body = m["content"].strip()
                assert body in text
                if len(body) >= 20 and not any(body[:40] in a["content"] for a in msgs if a["role"] == "assistant"):
                    assert body[:40] not in loss, f"a {m['role']} message is in the loss: {body[:40]!r}"
        assert "Code Interpreter Message" not in loss and "<tool_response>" not in loss

    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(losses) == 30 and all(math.isfinite(x) for x in losses), losses
    first, last = sum(losses[:4]) / 4, sum(losses[-4:]) / 4
    assert last < 0.7 * first, f"the loss did not fall when overfitting 4 rows: {first:.3f} -> {last:.3f}"
