"""What the tests make instead of downloading: a byte-level BPE trained with
the tokenizers library on the rows themselves, given a chat template that
ships inside an installed package, and a causal LM initialised from a config."""

import json
import re
from pathlib import Path

import trl
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast

TEMPLATES = Path(trl.__file__).parent / "chat_templates"


def chat_template(name: str) -> str:
    """TRL's copy of a model family's chat template (trl/chat_templates)."""
    return (TEMPLATES / f"{name}.jinja").read_text(encoding="utf-8")


def special_tokens(template: str) -> list[str]:
    """The control tokens a template writes (<|im_start|>, <start_of_turn>…)."""
    found = re.findall(r"<\|[A-Za-z0-9_]+\|>|<｜[^｜<>]+｜>|<\|?[a-z_]+\|?>", template)
    return sorted(set(found) | {"<|endoftext|>"})


def row_texts(rows) -> list[str]:
    out = []
    for row in rows:
        for m in row["messages"]:
            out.append(m["content"])
            for c in m.get("tool_calls") or []:
                out.append(json.dumps(c["function"]["arguments"], ensure_ascii=False))
    return out


def tokenizer(rows, template: str, vocab_size: int = 2000) -> PreTrainedTokenizerFast:
    """A byte-level BPE trained on the rows' text, with the template attached
    and its control tokens as special tokens, so that no file is downloaded."""
    specials = special_tokens(template)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=specials, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(row_texts(rows) + [template], trainer)
    eos = "<|im_end|>" if "<|im_end|>" in specials else "<|endoftext|>"
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>", eos_token=eos,
                                   pad_token="<|endoftext|>")
    fast.chat_template = template
    return fast


def causal_lm(tok: PreTrainedTokenizerFast):
    """A two-layer Qwen2 model from a config, randomly initialised."""
    from transformers import Qwen2Config, Qwen2ForCausalLM
    import torch

    torch.manual_seed(0)
    config = Qwen2Config(vocab_size=len(tok), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=8192,
                         bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
                         pad_token_id=tok.pad_token_id, tie_word_embeddings=True)
    return Qwen2ForCausalLM(config)
