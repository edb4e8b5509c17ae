# Grades a Harbor trial of a synth task with synth's own checks library
# (synth_checks.py beside this file, the library synth verifies rollouts
# with) and the task's checks (checks.json). Harbor runs it through test.sh
# in the verifier's container, where the agent's output/ and answer.txt are
# restored under the working directory. Writes reward.txt (1 when every
# check passes, else 0) and checks.json (each check's kind, ok and message)
# into the verifier's log folder.
#
# SYNTH_WORKDIR (default /app) and SYNTH_VERIFIER_DIR (default
# /logs/verifier) move the two folders, to grade outside a container.
import importlib.util
import json
import os
import stat
import sys

ANSWER_MAX = 1 << 20  # bytes of answer.txt read; the rest is ignored


def load_library(here):
    spec = importlib.util.spec_from_file_location("synth_checks", os.path.join(here, "synth_checks.py"))
    lib = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lib)
    # No figure recorder ran in the trial's interpreter: a chart without a
    # record is judged by its image alone (FIGURE_RECORDS in the library).
    lib.FIGURE_RECORDS = False
    return lib


def read_answer(path):
    """The agent's answer file: a regular file, not a link, read up to
    ANSWER_MAX bytes; empty when there is none."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return ""
        return f.read(ANSWER_MAX).decode("utf-8", errors="replace")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    work = os.environ.get("SYNTH_WORKDIR", "/app")
    logs = os.environ.get("SYNTH_VERIFIER_DIR", "/logs/verifier")
    lib = load_library(here)
    with open(os.path.join(here, "checks.json"), encoding="utf-8") as f:
        checks = json.load(f)
    raw = read_answer(os.path.join(work, "answer.txt"))
    messages = [{"role": "assistant", "content": raw}] if raw else []
    os.chdir(work)
    lib.isolate(work, None)  # nothing imports from the workspace; every check module loads now
    results = lib.run_checks(checks, lib.final_answer_of(raw), messages)
    passed = bool(results) and all(r["ok"] for r in results)
    os.makedirs(logs, exist_ok=True)
    with open(os.path.join(logs, "checks.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False, indent=1)
    with open(os.path.join(logs, "reward.txt"), "w") as f:
        f.write("1\n" if passed else "0\n")
    for r in results:
        print("%s %s: %s" % ("ok  " if r["ok"] else "FAIL", r["kind"], r["message"]))
    print("reward", 1 if passed else 0)


if __name__ == "__main__":
    sys.exit(main())
