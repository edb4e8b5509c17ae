"""TRL's GRPOTrainer takes its rollouts from `synth serve`: a few steps with a
tiny, randomly initialised model whose one-turn episodes the server plays and
scores (scripts/serve-grpo-smoke.sh, the command README gives)."""

import json
import os
import re
import subprocess
import sys

from conftest import REPO


def test_grpo_rewards_come_from_synth_serve():
    env = dict(os.environ, PYTHON=sys.executable)
    run = subprocess.run([str(REPO / "scripts" / "serve-grpo-smoke.sh")], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    steps = re.search(r"^grpo: steps (\d+) episodes (\d+)$", out, re.M)
    assert steps, out
    assert int(steps.group(1)) >= 1 and int(steps.group(2)) >= 1, out
    rewards = re.search(r"^grpo: rewards logged by the trainer (.*)$", out, re.M)
    assert rewards, out
    logged = json.loads(rewards.group(1))
    assert logged and all(0.0 <= r <= 1.0 for r in logged), logged
    counts = re.search(r"^serve-grpo-smoke: synth serve counted (.*)$", out, re.M)
    assert counts, out
    served = json.loads(counts.group(1))
    # Every episode the trainer scored was played to its end by the server.
    assert served["finished"] == int(steps.group(2)) > 0, served


def test_environment_factory_drives_synth_serve():
    """TRL's environment_factory: an environment class whose reset opens a
    synth serve episode, whose tool runs a cell in it, and whose rollouts are
    scored by the server's verifier (scripts/serve_trl_env_smoke.py)."""
    env = dict(os.environ, PYTHON=sys.executable)
    run = subprocess.run([str(REPO / "scripts" / "serve-grpo-smoke.sh"), "env"], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    by_hand = re.search(r"^trl-env: by hand: .* reward (\S+)$", out, re.M)
    assert by_hand and float(by_hand.group(1)) == 1.0, out
    steps = re.search(r"^trl-env: steps (\d+) episodes (\d+) and (\d+) outside training$", out, re.M)
    assert steps and int(steps.group(1)) == 2 and int(steps.group(2)) >= 1, out
    rewards = re.search(r"^trl-env: rewards logged by the trainer (.*)$", out, re.M)
    assert rewards, out
    logged = json.loads(rewards.group(1))
    assert len(logged) == 2 and all(0.0 <= r <= 1.0 for r in logged), logged
    played = json.loads(re.search(r"^trl-env: episodes (.*)$", out, re.M).group(1))
    assert all(e["reward"] in (0, 1) and e["stop"] for e in played), played
    # TRL's tool-calling loop ran cells in the episodes' interpreters.
    assert any(e["cells"] > 0 for e in played), played
    served = json.loads(re.search(r"^serve-grpo-smoke: synth serve counted (.*)$", out, re.M).group(1))
    # Every rollout the trainer scored, and those played outside training,
    # were played to their end and verified by the server.
    assert served["finished"] == int(steps.group(2)) + int(steps.group(3)), served
