"""TRL's GRPOTrainer drives `synth serve` through `environment_factory`.

`SynthServeEnv` is the environment class TRL's API asks for: `reset` opens an
episode of the row's task (format openai-tools) and returns the task as the
prompt's text; its public method `execute_python` is the tool the model calls,
run in the episode's stateful interpreter; the reward function hands each
rollout's final answer to the server, whose isolated verifier gives 1 or 0.
Nothing in synth serve is changed for it.

The policy is the tiny, randomly initialised Llama of serve_grpo_smoke.py
with TRL's own Qwen3 chat template (so TRL can render and parse tool calls);
nothing is downloaded. Before training, the script plays one episode through
the class by hand (the tool runs a cell, the right answer gets reward 1), and
teaches the tiny model, in a few seconds, to answer every task's prompt with
one call of the tool: so that during training TRL's own tool-calling loop
runs cells in synth serve's interpreters. Its answers stay wrong (reward 0).
Run by scripts/serve-grpo-smoke.sh env with SYNTH_SERVE_URL and SYNTH_BENCH
set.
"""

import json
import os
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from datasets import Dataset  # noqa: E402
from trl import GRPOConfig, GRPOTrainer  # noqa: E402
from trl.chat_template_utils import qwen3_chat_template  # noqa: E402

from serve_grpo_smoke import tiny_policy  # noqa: E402

URL = os.environ["SYNTH_SERVE_URL"]
BENCH = os.environ["SYNTH_BENCH"]

episodes = []


def call(path, body):
    req = urllib.request.Request(URL + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        raise RuntimeError(f"synth serve {path}: {e.code} {e.read().decode(errors='replace')}") from None


class SynthServeEnv:
    """One episode of synth serve at a time; TRL makes one instance per
    concurrent rollout and resets it for each."""

    def __init__(self):
        self.episode = None
        self.result = None
        self.cells = 0

    def reset(self, task_id, **kwargs):
        self.result = None
        self.cells = 0
        r = call("/reset", {"task_id": task_id, "format": "openai-tools"})
        self.episode = r["observation"]["episode_id"]
        # The server's system prompt describes its tool; TRL renders the
        # tool's schema itself, so the prompt takes the user messages.
        return "\n".join(m["content"] for m in r["observation"]["messages"] if m["role"] == "user")

    def execute_python(self, code: str) -> str:
        """Run Python code in the task's stateful interpreter (variables persist between calls; the task's files are in the working directory).

        Args:
            code: The Python code to run.

        Returns:
            What the cell printed, its last expression's value, or its error.
        """
        if self.result is not None and self.result["done"]:
            return "The episode has ended."
        call_msg = {"role": "assistant", "content": "",
                    "tool_calls": [{"id": "call-1", "type": "function",
                                    "function": {"name": "execute_python", "arguments": json.dumps({"code": code})}}]}
        self.result = call("/step", {"episode_id": self.episode, "action": {"message": call_msg}})
        self.cells += 1
        return "\n".join(m["content"] for m in self.result["observation"]["messages"])

    def _finish(self, answer):
        """Ends the episode with the model's final answer; the verifier's reward."""
        if self.result is None or not self.result["done"]:
            self.result = call("/step", {"episode_id": self.episode, "action": {"content": "Finished: " + (answer or "").strip()}})
        assert self.result["done"], self.result
        obs = self.result["observation"]
        episodes.append({"episode": self.episode, "task": obs["task_id"], "reward": self.result["reward"],
                         "cells": self.cells, "stop": obs["stop_reason"], "failure": obs["verdict"].get("failure", "")})
        return float(self.result["reward"])


def final_text(completion):
    if isinstance(completion, list):
        for m in reversed(completion):
            if m.get("role") == "assistant" and m.get("content"):
                return m["content"] if isinstance(m["content"], str) else json.dumps(m["content"])
        return ""
    return completion


def synth_reward(completions, environments, **kwargs):
    return [env._finish(final_text(c)) for env, c in zip(environments, completions)]


TOOL_CALL = '<tool_call>\n{"name": "execute_python", "arguments": {"code": "print(17 * 23)"}}\n</tool_call>'


def teach_tool_call(model, tok, prompts, steps=400):
    """Trains the tiny model, on the prompts TRL will render, to answer with
    one call of the tool (running print(17 * 23)) and an end of turn: so
    that the trainer's rollouts reach synth serve's interpreter through TRL's
    own tool-calling loop, not only by hand."""
    import torch

    target = tok(TOOL_CALL + "<|im_end|>", add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
    seqs = []
    for p in prompts:
        ids = tok(p, add_special_tokens=False)["input_ids"]
        seqs.append((ids + target, [-100] * len(ids) + target))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for step in range(steps):
        loss = 0
        for ids, labels in seqs:
            out = model(input_ids=torch.tensor([ids]), labels=torch.tensor([labels]))
            loss = loss + out.loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        if loss.item() / len(seqs) < 0.01:
            break
    print("trl-env: taught the tool call in", step + 1, "steps, loss", round(loss.item() / len(seqs), 4))


def by_hand():
    """One episode through the class as TRL would play it, with the right
    answer: the tool runs a cell, and the verdict is reward 1."""
    env = SynthServeEnv()
    prompt = env.reset(task_id="t-math")
    out = env.execute_python("x = 17 * 23\nprint(x)")
    reward = env._finish("391")
    print("trl-env: by hand: prompt", json.dumps(prompt[:60]), "tool output", json.dumps(out.strip()[-40:]), "reward", reward)
    if "391" not in out or reward != 1.0:
        sys.exit("trl-env: the episode played by hand did not run its cell or get reward 1")


def main():
    by_hand()
    with open(os.path.join(BENCH, "tasks.jsonl")) as f:
        tasks = [json.loads(line) for line in f if line.strip()]
    ds = Dataset.from_list([{"prompt": [{"role": "user", "content": ""}], "task_id": t["id"]} for t in tasks])
    model, tok = tiny_policy(max_positions=8192)
    tok.chat_template = qwen3_chat_template
    tok.padding_side = "left"
    probe = SynthServeEnv()
    prompts = []
    for t in tasks:
        text = probe.reset(task_id=t["id"])
        prompts.append(tok.apply_chat_template([{"role": "user", "content": text}], tools=[probe.execute_python],
                                               add_generation_prompt=True, tokenize=False))
        probe._finish("")
    teach_tool_call(model, tok, prompts)
    args = GRPOConfig(output_dir=tempfile.mkdtemp(), per_device_train_batch_size=2, num_generations=2, max_steps=2,
                      max_completion_length=512, learning_rate=1e-3, logging_steps=1, report_to="none",
                      use_cpu=True, bf16=False, save_strategy="no", seed=0, max_tool_calling_iterations=1, temperature=0.1)
    trainer = GRPOTrainer(model=model, processing_class=tok, reward_funcs=[synth_reward], args=args,
                          train_dataset=ds, environment_factory=SynthServeEnv)
    trainer.train()
    logged = [h for h in trainer.state.log_history if "reward" in h]
    trained = episodes[1 + len(tasks):]
    print("trl-env: steps", trainer.state.global_step, "episodes", len(trained), "and", len(episodes) - len(trained), "outside training")
    print("trl-env: rewards logged by the trainer", [h["reward"] for h in logged])
    print("trl-env: tool calls per rollout logged by the trainer", [h.get("tools/call_frequency") for h in logged])
    print("trl-env: episodes", json.dumps(trained))
    if trainer.state.global_step != 2 or len(logged) != 2 or not trained:
        sys.exit("trl-env: the trainer did not take 2 steps with rewards from synth serve")
    if not any(e["cells"] > 0 for e in trained):
        sys.exit("trl-env: no rollout's tool call reached synth serve's interpreter")


if __name__ == "__main__":
    main()
