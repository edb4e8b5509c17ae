"""synth's Harbor export read by harbor itself (harbor on PyPI, in its own
locked environment, pyenv/harbor.lock): every task folder that
synth export --format harbor writes for a benchmark synth builds is loaded
by harbor's Task and dataset loaders and passes harbor's task linter, and
every trajectory that synth eval export --format atif writes validates as
harbor's ATIF Trajectory. The folders' own grading (tests/test.sh, synth's
checks library) gives reward 1 to the reference solution and 0 to an empty
trial. README's snippets are the code that runs.

harbor declares Python >=3.12 and the environment is Debian's 3.11: the
snippets run after README's two-line typing shim (pytests:harbor-py311).
No container is built or run."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REPO, readme_snippet, synth, write_inputs

# math.gcd and program.function read no file: the builds ask for them with --fileless.
TEMPLATES = "chart.pie,text.replace,math.gcd,program.function"


def env_python(name: str, var: str) -> str:
    """The interpreter of the locked environment NAME (scripts/pyenv.sh
    builds it; scripts/pytest.sh does so before the tests)."""
    path = os.environ.get(var) or subprocess.run(
        [str(REPO / "scripts" / "pyenv.sh"), "--python", name], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not os.access(path, os.X_OK):
        pytest.fail(f"the {name} environment is not built ({path}): run scripts/pyenv.sh {name}, or scripts/pytest.sh")
    return path


@pytest.fixture(scope="module")
def harbor_python() -> str:
    return env_python("harbor", "HARBOR_PYTHON")


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """A folder laid out as README's snippets expect: out/ a run whose
    benchmark is exported to out/bench-harbor, results/ref and
    results/tools the reference teacher's evals of it (pybench and
    openai-tools formats), each exported to atif/."""
    base = tmp_path_factory.mktemp("harbor")
    write_inputs(base / "inputs")
    run = base / "out"
    synth("build", "-o", str(run), "--source", f"local:{base / 'inputs'}", "--templates", TEMPLATES,
          "--fileless", "--bench-fraction", "0.5")
    printed = synth("export", str(run), "--format", "harbor")
    assert f"to {run / 'bench-harbor'}" in printed
    for name, fmt in (("ref", "pybench"), ("tools", "openai-tools")):
        res = base / "results" / name
        synth("eval", "--bench", str(run / "bench"), "--teacher", "reference", "--format", fmt, "-o", str(res))
        synth("eval", "export", str(res), "--format", "atif")
    return base


def run_in_harbor(python: str, cwd: Path, *snippets: str, check: str = "") -> subprocess.CompletedProcess:
    """Runs README's snippets (and the test's own check code after them) in
    harbor's environment, in cwd, after the 3.11 shim."""
    code = "\n".join([readme_snippet("harbor-py311"), *(readme_snippet(s) for s in snippets), check])
    return subprocess.run([python, "-I", "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300)


def bench_tasks(exported: Path) -> list[dict]:
    lines = (exported / "out" / "bench" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


TASK_REPORT = """
import json
report = []
for folder in sorted(Path("out/bench-harbor").glob("task-*")):
    t = Task(folder)
    report.append({"name": t.name, "instruction": t.instruction, "metadata": t.config.metadata,
                   "verifier": t.config.verifier.environment_mode.value, "user": t.config.agent.user,
                   "artifacts": t.config.artifacts, "valid": Task.is_valid_dir(folder),
                   "solve": str(t.paths.discovered_solve_path), "test": str(t.paths.discovered_test_path),
                   "lint_all": [f.rule.value for f in lint_task(folder, selected_rules=set(LintRule))]})
from harbor.models.job.config import DatasetConfig
import asyncio
listed = asyncio.run(DatasetConfig(path=Path("out/bench-harbor")).get_task_configs())
print(json.dumps({"tasks": report, "listed": sorted(c.path.name for c in listed)}))
"""


def test_harbor_loads_the_task_folders(exported, harbor_python):
    proc = run_in_harbor(harbor_python, exported, "harbor-tasks",
                         check="from harbor.lint.models import LintRule\n" + TASK_REPORT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    tasks = bench_tasks(exported)
    assert len(tasks) >= 2, "the benchmark should hold a few tasks"
    assert [t["name"] for t in got["tasks"]] == sorted(f"task-{t['index']}" for t in tasks)
    assert got["listed"] == [t["name"] for t in got["tasks"]], "harbor's dataset loader lists every task folder"
    by_index = {t["index"]: t for t in tasks}
    for t in got["tasks"]:
        want = by_index[t["metadata"]["index"]]
        assert t["valid"]
        assert t["metadata"]["synth_task_id"] == want["id"]
        assert t["metadata"]["files"] == ["data/" + f["name"] for f in want["files"] or []]
        assert t["instruction"].startswith(want["query"].strip())
        assert t["verifier"] == "separate" and t["user"] == "agent"
        assert t["artifacts"] == ["/app/output", "/app/answer.txt"]
        assert t["solve"].endswith("solution/solve.sh") and t["test"].endswith("tests/test.sh")
        # Every rule of harbor's linter, the opt-in ones too: only the base
        # image's tag (not a digest) is reported.
        assert t["lint_all"] == ["unpinned-image"], t["lint_all"]


def test_harbor_refuses_a_broken_field(exported, harbor_python, tmp_path):
    """The loaders are strict enough for the test above to mean something:
    one wrong field in task.toml, and one in a trajectory, fail them."""
    shutil.copytree(exported / "out" / "bench-harbor", tmp_path / "out" / "bench-harbor")
    first = sorted((tmp_path / "out" / "bench-harbor").glob("task-*"))[0]
    toml = first / "task.toml"
    toml.write_text(toml.read_text().replace('environment_mode = "separate"', 'environment_mode = "isolated"'))
    proc = run_in_harbor(harbor_python, tmp_path, "harbor-tasks")
    assert proc.returncode != 0 and "environment_mode" in proc.stderr, proc.stderr[-2000:]

    toml.write_text(toml.read_text().replace('environment_mode = "isolated"', 'environment_mode = "separate"')
                    .replace("build_timeout_sec", "build_timeout_secs"))
    proc = run_in_harbor(harbor_python, tmp_path, "harbor-tasks")
    assert proc.returncode != 0 and "build_timeout_secs" in proc.stderr, "the linter reports an unknown field"

    shutil.copytree(exported / "results" / "ref" / "atif", tmp_path / "results" / "ref" / "atif")
    path = sorted((tmp_path / "results" / "ref" / "atif").glob("*.json"))[0]
    tr = json.loads(path.read_text())
    tr["steps"][-1]["source"] = "assistant"
    path.write_text(json.dumps(tr))
    proc = run_in_harbor(harbor_python, tmp_path, "harbor-atif")
    assert proc.returncode != 0 and "source" in proc.stderr, proc.stderr[-2000:]


ATIF_REPORT = """
import json
from harbor.utils.trajectory_validator import TrajectoryValidator
out = {}
for name in ("ref", "tools"):
    for path in sorted(Path("results", name, "atif").glob("*.json")):
        tr = Trajectory.model_validate_json(path.read_text())
        v = TrajectoryValidator()
        out[f"{name}/{path.name}"] = {"valid": v.validate(path), "errors": v.errors,
            "sources": [s.source for s in tr.steps],
            "calls": [[c.model_dump() for c in (s.tool_calls or [])] for s in tr.steps],
            "observations": [[r.content for r in s.observation.results] if s.observation else [] for s in tr.steps],
            "extra": tr.extra}
print(json.dumps(out))
"""


def test_harbor_loads_the_trajectories(exported, harbor_python):
    proc = run_in_harbor(harbor_python, exported, "harbor-atif", check=ATIF_REPORT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    for name in ("ref", "tools"):
        rows = [json.loads(line) for line in (exported / "results" / name / "results.jsonl").read_text().splitlines()]
        mine = {k: v for k, v in got.items() if k.startswith(name + "/")}
        assert len(mine) == len(rows) > 0
        for row in rows:
            traj = row["trajectory"]
            t = mine[f"{name}/task-{row['index']}-sample-{row['sample'] + 1}.json"]
            assert t["valid"], t["errors"]
            assert t["extra"]["passed"] == row["passed"] and t["extra"]["final_answer"] == traj["final_answer"]
            assert [c["message"] for c in t["extra"]["checks"]] == [c["message"] for c in traj["verdict"]["checks"]]
            assert t["sources"][0] == "system" and t["sources"][-1] == "agent"
            # Every executed cell is a call of execute_python with its code,
            # answered by its output.
            calls = [c for step in t["calls"] for c in step]
            assert [c["arguments"]["code"] for c in calls] == [s["code"] for s in traj["steps"]]
            assert all(c["function_name"] == "execute_python" for c in calls)
            outputs = [o for step in t["observations"] for o in step]
            assert len(outputs) == len(traj["steps"])
            for out, step in zip(outputs, traj["steps"]):
                assert step["observation"].strip() in out


def sandbox_env(work: Path, logs: Path) -> dict:
    """Runs a task folder's scripts outside a container: python3 is the
    sandbox's locked interpreter, the one the Dockerfile's packages match."""
    python = env_python("sandbox", "SANDBOX_PYTHON")
    return {"PATH": f"{Path(python).parent}:/usr/bin:/bin", "SYNTH_WORKDIR": str(work),
            "SYNTH_VERIFIER_DIR": str(logs), "MPLBACKEND": "Agg", "HOME": str(work)}


def grade(folder: Path, tmp: Path, solve: bool) -> tuple[str, list]:
    work, logs = tmp / "app", tmp / "logs"
    shutil.rmtree(tmp, ignore_errors=True)
    work.mkdir(parents=True)
    if (folder / "environment" / "data").is_dir():
        shutil.copytree(folder / "environment" / "data", work / "data")
    env = sandbox_env(work, logs)
    if solve:
        proc = subprocess.run(["bash", str(folder / "solution" / "solve.sh")], env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
    proc = subprocess.run(["bash", str(folder / "tests" / "test.sh")], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return (logs / "reward.txt").read_text().strip(), json.loads((logs / "checks.json").read_text())


def test_task_folders_grade_with_synths_checks(exported, tmp_path):
    """tests/test.sh runs synth's checks library on the task's checks: the
    reference solution (solution/solve.sh) earns reward 1, an agent that
    did nothing 0, with one message per check of the task."""
    tasks = {f"task-{t['index']}": t for t in bench_tasks(exported)}
    for folder in sorted((exported / "out" / "bench-harbor").glob("task-*")):
        n = len(tasks[folder.name]["checks"])
        reward, checks = grade(folder, tmp_path / folder.name / "ref", solve=True)
        assert reward == "1" and len(checks) == n and all(c["ok"] for c in checks), (folder.name, checks)
        reward, checks = grade(folder, tmp_path / folder.name / "empty", solve=False)
        assert reward == "0" and len(checks) == n and not all(c["ok"] for c in checks), (folder.name, checks)
        # The library synth verifies with: checks.py, then the chart helpers of charts.py.
        library = (REPO / "checks" / "checks.py").read_text() + (REPO / "checks" / "charts.py").read_text()
        assert (folder / "tests" / "synth_checks.py").read_text() == library
