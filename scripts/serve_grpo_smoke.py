"""A few steps of TRL's GRPOTrainer whose rollouts are episodes of `synth serve`.

The policy is a tiny, randomly initialised Llama with a character-level
tokenizer, both made here (nothing is downloaded). Its rollout function
resets an episode of the prompt's task over HTTP, lets the model write one
assistant turn, steps it, and hands the environment's reward (the verifier's
1 or 0) to the trainer through a reward function. The server is started with
--max-turns 1, so that one turn is a whole episode. Run by
scripts/serve-grpo-smoke.sh with SYNTH_SERVE_URL and SYNTH_BENCH set.
"""

import json
import os
import string
import sys
import tempfile
import urllib.request

import torch
from datasets import Dataset
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
from trl import GRPOConfig, GRPOTrainer

URL = os.environ["SYNTH_SERVE_URL"]
BENCH = os.environ["SYNTH_BENCH"]
MAX_NEW = 24


def call(path, body):
    req = urllib.request.Request(URL + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.load(r)


def tiny_policy(max_positions=512):
    chars = list(string.printable)
    vocab = {"[PAD]": 0, "[UNK]": 1, "[BOS]": 2, "[EOS]": 3}
    for c in chars:
        vocab.setdefault(c, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    tok.decoder = decoders.Fuse()
    hf = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]", bos_token="[BOS]", eos_token="[EOS]")
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(vocab), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                      num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=max_positions,
                      pad_token_id=0, bos_token_id=2, eos_token_id=3)
    return LlamaForCausalLM(cfg), hf


episodes = []


def rollout(prompts, trainer):
    """One episode per prompt (the trainer's sampler has already repeated each
    prompt num_generations times): reset the prompt's task, generate a turn,
    step it; the reward comes back from synth serve's verifier."""
    tok, model = trainer.processing_class, trainer.model
    out = {"prompt_ids": [], "completion_ids": [], "logprobs": [], "env_reward": []}
    for prompt in prompts:
        task_id = prompt.split("\n", 1)[0].removeprefix("task ")
        for _ in range(1):
            r = call("/reset", {"task_id": task_id})
            ids = tok(prompt[-200:], add_special_tokens=False)["input_ids"]
            inp = torch.tensor([ids], device=model.device)
            with torch.no_grad():
                gen = model.generate(inp, attention_mask=torch.ones_like(inp), max_new_tokens=MAX_NEW, do_sample=True,
                                     output_scores=True, return_dict_in_generate=True, pad_token_id=0)
            comp = gen.sequences[0, len(ids):].tolist()
            lps = [torch.log_softmax(s[0], -1)[t].item() for s, t in zip(gen.scores, comp)]
            text = tok.decode(comp, skip_special_tokens=True)
            res = call("/step", {"episode_id": r["observation"]["episode_id"], "action": {"content": text}})
            assert res["done"], res
            episodes.append({"task": task_id, "reward": res["reward"], "stop": res["observation"]["stop_reason"],
                             "failure": res["observation"]["verdict"]["failure"]})
            out["prompt_ids"].append(ids)
            out["completion_ids"].append(comp)
            out["logprobs"].append(lps)
            out["env_reward"].append(float(res["reward"]))
    return out


def env_reward(completions, env_reward, **kwargs):
    return env_reward


def main():
    with open(os.path.join(BENCH, "tasks.jsonl")) as f:
        tasks = [json.loads(line) for line in f if line.strip()]
    ds = Dataset.from_list([{"prompt": f"task {t['id']}\n{t['query']}\n"} for t in tasks])
    model, tok = tiny_policy()
    args = GRPOConfig(output_dir=tempfile.mkdtemp(), per_device_train_batch_size=2, num_generations=2, max_steps=3,
                      max_completion_length=MAX_NEW, learning_rate=1e-3, logging_steps=1, report_to="none",
                      use_cpu=True, bf16=False, save_strategy="no", seed=0)
    trainer = GRPOTrainer(model=model, processing_class=tok, reward_funcs=[env_reward], args=args,
                          train_dataset=ds, rollout_func=rollout)
    trainer.train()
    logged = [h for h in trainer.state.log_history if "reward" in h]
    print("grpo: steps", trainer.state.global_step, "episodes", len(episodes))
    print("grpo: rewards logged by the trainer", [h["reward"] for h in logged])
    print("grpo: episodes", json.dumps(episodes))
    if trainer.state.global_step != 3 or len(logged) != 3 or not episodes:
        sys.exit("grpo: the trainer did not take 3 steps with rewards from synth serve")


if __name__ == "__main__":
    main()
