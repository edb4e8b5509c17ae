"""PyBench's side of the parity comparison (scripts/pybench-parity.sh).

  run     re-executes the code of each recording in PyBench's trajectory.jsonl
          the way PyBench's inference.py does: a fresh Jupyter kernel per task
          through nbclient, cells appended to a notebook, the PyBench root as
          working directory (one shared ./output), the first ```python block
          of each assistant reply, observations built from the cell's stream,
          execute_result and error outputs. Writes the recordings again with
          this machine's observations.
  grade   runs PyBench's data/unit_test/tests.py (test_task_<index>) over a
          trajectory file from the PyBench root, as its enter_point.py does,
          and writes {index: "Pass" | "Failed: <reason>"}.
  compare prints the per-task agreement of PyBench's grades and synth's eval
          results (results.jsonl), and the disagreements.

Runs in the parity environment (pyenv/parity.lock: the sandbox's packages
plus ipykernel, jupyter_client and nbclient).
"""

import argparse
import json
import os
import signal
import sys
import traceback

OBSERVATION = "[INFO]This is a Code Interpreter Message:\n"
ERROR_HEAD = ("There are some errors in the code. All variables in this cell should be "
              "redefined. Please Debug:\n")


def first_code(reply, start="```python", end="```"):
    """The code PyBench's prompt mode extracts: after the first start token,
    up to the next end token, stripped; "" without one."""
    i = reply.find(start)
    if i < 0:
        return ""
    i += len(start)
    j = reply.find(end, i)
    return reply[i:j].strip() if j >= 0 else ""


def observation(outputs):
    text = ""
    for out in outputs:
        kind = out.get("output_type")
        if kind == "stream":
            text += out.get("text", "")
        elif kind == "execute_result":
            text += str(out.get("data", {}).get("text/plain", ""))
        elif kind == "error":
            text += ERROR_HEAD + "Error: %s\n%s\n" % (out.get("ename"), out.get("evalue"))
    return text


def replay_one(messages, timeout, max_turns):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    client = NotebookClient(nb, allow_errors=True, timeout=timeout)
    client.km = client.create_kernel_manager()
    client.start_new_kernel()
    client.start_new_kernel_client()
    out = []
    turns = 0
    try:
        i = 0
        while i < len(messages):
            m = messages[i]
            out.append(dict(m))
            i += 1
            if m.get("role") != "assistant":
                continue
            code = first_code(m.get("content") or "")
            if not code or turns >= max_turns:
                break
            turns += 1
            nb.cells.append(nbformat.v4.new_code_cell(code))
            try:
                client.reset_execution_trackers()
                client.execute_cell(nb.cells[-1], len(nb.cells) - 1)
                text = observation(nb.cells[-1].get("outputs", []))
            except Exception as e:  # a timeout, a dead kernel: the text PyBench records
                text = str(e)
            if i < len(messages) and messages[i].get("role") == "user" \
                    and (messages[i].get("content") or "").startswith(OBSERVATION):
                i += 1  # the published observation, replaced by this machine's
            out.append({"role": "user", "content": OBSERVATION + text})
    finally:
        try:
            client._cleanup_kernel()
        except Exception:
            pass
    return out


def cmd_run(a):
    os.chdir(a.root)
    os.makedirs("output", exist_ok=True)
    records = [json.loads(line) for line in open(a.trajectories, encoding="utf-8") if line.strip()]
    done = set()
    if os.path.exists(a.out):  # resume: a finished record is not run again
        for line in open(a.out, encoding="utf-8"):
            try:
                done.add(str(json.loads(line)["index"]))
            except (ValueError, KeyError):
                pass
    with open(a.out, "a", encoding="utf-8") as f:
        for n, rec in enumerate(records, 1):
            index = str(rec.get("index"))
            if index in done:
                continue
            print("pybench run: %d/%d task %s" % (n, len(records), index), file=sys.stderr, flush=True)
            rec = dict(rec)
            rec["messages"] = replay_one(rec.get("messages") or [], a.timeout, a.max_turns)
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
            f.flush()


class TestTimeout(Exception):
    pass


def cmd_grade(a):
    root = os.path.abspath(a.root)
    os.chdir(root)
    sys.path.insert(0, os.path.join(root, "data", "unit_test"))
    import tests  # PyBench's own

    trajectories = {}
    for line in open(a.trajectories, encoding="utf-8"):
        if line.strip():
            rec = json.loads(line)
            trajectories[str(rec.get("index"))] = rec.get("messages")

    def alarm(*_):
        raise TestTimeout("test ran over %d s" % a.timeout)

    signal.signal(signal.SIGALRM, alarm)
    results = {}
    for i in range(2, 153):
        fn = getattr(tests, "test_task_%d" % i, None)
        if fn is None:
            continue
        signal.alarm(a.timeout)
        try:
            if str(i) not in trajectories:
                raise KeyError("no recording of task %d" % i)
            fn(trajectories[str(i)])
            results[str(i)] = "Pass"
        except BaseException as e:  # PyBench's entry point counts any exception as Failed
            if isinstance(e, KeyboardInterrupt):
                raise
            last = traceback.format_exception_only(type(e), e)[-1].strip()
            results[str(i)] = "Failed: " + last[:300]
        finally:
            signal.alarm(0)
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    passed = sum(v == "Pass" for v in results.values())
    print("pybench grade: %d of %d tasks pass (%s)" % (passed, len(results), a.trajectories))


def synth_results(path):
    """{PyBench index: passed} from synth eval's results.jsonl, whose lines
    keep each imported task's PyBench index."""
    out = {}
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        if r.get("index") is None:
            raise SystemExit("compare: %s has a line without a PyBench index (task %s)" % (path, r.get("task_id")))
        out[str(r["index"])] = bool(r.get("passed"))
    return out


def cmd_compare(a):
    pyb = {k: v == "Pass" for k, v in json.load(open(a.pybench, encoding="utf-8")).items()}
    reasons = json.load(open(a.pybench, encoding="utf-8"))
    syn = synth_results(a.synth)
    keys = sorted(set(pyb) | set(syn), key=int)
    both = neither = only_p = only_s = 0
    lines = []
    for k in keys:
        p, s = pyb.get(k, False), syn.get(k, False)
        if p and s:
            both += 1
        elif not p and not s:
            neither += 1
        elif p:
            only_p += 1
            lines.append("  %s: PyBench passes, synth fails" % k)
        else:
            only_s += 1
            lines.append("  %s: synth passes, PyBench fails (%s)" % (k, reasons.get(k, "no grade")))
    agree = both + neither
    print("%s: synth %d, PyBench %d of %d; both %d, neither %d, PyBench only %d, synth only %d; "
          "agreement %d/%d = %.1f%%" % (a.label, sum(syn.values()), sum(pyb.values()), len(keys),
                                        both, neither, only_p, only_s, agree, len(keys),
                                        100.0 * agree / max(1, len(keys))))
    for line in lines:
        print(line)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--root", required=True)
    r.add_argument("--trajectories", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--timeout", type=int, default=60)
    r.add_argument("--max-turns", type=int, default=10)
    g = sub.add_parser("grade")
    g.add_argument("--root", required=True)
    g.add_argument("--trajectories", required=True)
    g.add_argument("--out", required=True)
    g.add_argument("--timeout", type=int, default=120)
    c = sub.add_parser("compare")
    c.add_argument("--pybench", required=True)
    c.add_argument("--synth", required=True)
    c.add_argument("--label", default="synth vs PyBench")
    a = p.parse_args()
    {"run": cmd_run, "grade": cmd_grade, "compare": cmd_compare}[a.cmd](a)


if __name__ == "__main__":
    main()
