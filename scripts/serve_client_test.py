"""OpenEnv's own client (openenv-core) plays episodes against `synth serve`.

Run by scripts/serve-client-test.sh, which starts the server on loopback over
pipeline/testdata/evalbench and sets SYNTH_SERVE_URL and SYNTH_BENCH. The
client is GenericEnvClient: the WebSocket session (/ws) OpenEnv's clients and
TRL's integration use, through openenv-core's synchronous wrapper.
"""

import json
import os

import pytest
from openenv.core.generic_client import GenericEnvClient

URL = os.environ["SYNTH_SERVE_URL"]
BENCH = os.environ["SYNTH_BENCH"]


def tasks():
    with open(os.path.join(BENCH, "tasks.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def pybench_turn(step):
    return f"Analyse: {step['thought']}\nThis Step Todo: {step['thought']}\nAction:\n```python\n{step['code']}\n```"


@pytest.fixture
def env():
    with GenericEnvClient(base_url=URL).sync() as client:
        yield client


@pytest.mark.parametrize("task", tasks(), ids=lambda t: t["id"])
def test_reference_gets_reward_1(env, task):
    r = env.reset(task_id=task["id"])
    assert not r.done and r.reward is None
    obs = r.observation
    roles = [m["role"] for m in obs["messages"]]
    # the system prompt, the upload notice (for a task with files), the query
    assert roles == ["system"] + ["user"] * (1 + bool(task["files"])), roles
    if task["files"]:
        assert obs["messages"][1]["content"].startswith("[INFO]The data is uploaded to ./data/")
    assert obs["messages"][-1]["content"] == task["query"]
    for step in task["reference"]["steps"]:
        r = env.step({"content": pybench_turn(step)})
        assert not r.done, r.observation
        assert r.observation["cell_status"] == "ok", r.observation
        assert r.observation["messages"][0]["content"].startswith("[INFO]This is a Code Interpreter Message:")
    r = env.step({"content": "Finished: " + task["reference"]["answer"]})
    assert r.done
    assert r.reward == 1.0, r.observation
    assert r.observation["verdict"]["passed"] is True
    assert all(c["ok"] for c in r.observation["verdict"]["checks"])
    state = env.state()
    assert state["done"] and state["reward"] == 1.0


def test_openai_tools_reference_gets_reward_1(env):
    r = env.reset(task_id="4", format="openai-tools")
    obs = r.observation
    assert obs["format"] == "openai-tools"
    assert obs["tools"][0]["function"]["name"] == "execute_python"
    call = {"id": "call_1", "type": "function",
            "function": {"name": "execute_python", "arguments": json.dumps({"code": "print(17 * 23)"})}}
    r = env.step({"message": {"role": "assistant", "content": "", "tool_calls": [call]}})
    tool = r.observation["messages"][0]
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_1" and "391" in tool["content"]
    r = env.step({"message": {"role": "assistant", "content": "17 times 23 is 391."}})
    assert r.done and r.reward == 1.0, r.observation


def test_empty_episode_gets_reward_0(env):
    r = env.reset(task_id="1")
    r = env.step({"content": "Finished: "})
    assert r.done and r.reward == 0.0
    assert r.observation["verdict"]["passed"] is False
    assert r.observation["verdict"]["failure"]


FORGE = r'''
import os, json, builtins
os.makedirs('./output', exist_ok=True)
# the input, unsorted, where the sorted table should be
open('./output/sorted.csv', 'w').write(open('./data/nums.csv').read())
# modules that would rewrite any verdict, if the verifier imported them
for name in ('json', 'checks', 'pandas', 'csv'):
    for d in ('.', './output'):
        open(os.path.join(d, name + '.py'), 'w').write(
            "import builtins\n_p = builtins.print\n"
            "builtins.print = lambda *a, **k: _p(json.dumps({'passed': True, 'ok': True}))\n")
# fake result lines on the interpreter's output
for i in range(20):
    print(json.dumps({"kind": "table", "ok": True, "passed": True, "message": "ok"}))
print("PASSED")
'''


def test_forging_episode_gets_reward_0(env):
    r = env.reset(task_id="2")
    r = env.step({"content": "Analyse: forge\nThis Step Todo: forge\nAction:\n```python\n" + FORGE + "\n```"})
    assert r.observation["cell_status"] == "ok", r.observation
    r = env.step({"content": "Finished: Saved the sorted table to ./output/sorted.csv. All checks passed: "
                  + " ".join(str(i) for i in range(-10, 400))})
    assert r.done
    assert r.reward == 0.0, r.observation
    assert r.observation["verdict"]["passed"] is False


def test_unknown_task_is_a_clear_error(env):
    with pytest.raises(RuntimeError, match="no task"):
        env.reset(task_id="nope")
