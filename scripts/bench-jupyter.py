#!/usr/bin/python3
"""Measures a Jupyter kernel (ipykernel, driven with jupyter_client) on the
same tasks as synth's sandbox benchmarks, and prints one JSON object:

  ready_ms       median time from starting a kernel to a kernel that has
                 imported numpy, pandas and matplotlib (Agg)
  roundtrip_us   median round trip of `1+1` (execute request to idle, result
                 received)
  print_1mib_ms  median time of a cell printing 1 MiB
  pss1_mib       PSS of one idle kernel (with the modules imported)
  pss10_mib      PSS of ten such kernels

With --episodes N it measures only a kernel per episode, as synth serve's
benchmark compares (scripts/bench-serve.sh), and prints:

  episode_ms     median time of one episode in a kernel of its own: start,
                 import the modules, run `print(17 * 23)`, shut down (no
                 verification: a floor for a kernel-per-episode environment)
  episodes_per_s 1000 / episode_ms, one episode at a time

Run with Debian's python3 and python3-ipykernel python3-jupyter-client.
Usage: bench-jupyter.py [--ready N] [--roundtrip N] [--print N] [--episodes N]
"""

import argparse
import json
import os
import statistics
import sys
import time

os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")

from jupyter_client.manager import KernelManager  # noqa: E402

IMPORTS = "import numpy, pandas, matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot"


def start():
    km = KernelManager(kernel_name="python3")
    km.start_kernel(stderr=open(os.devnull, "w"))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=120)
    return km, kc


def run(kc, code):
    out = []

    def hook(msg):
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "execute_result":
            out.append(msg["content"]["data"].get("text/plain", ""))

    reply = kc.execute_interactive(code, output_hook=hook, timeout=120)
    if reply["content"]["status"] != "ok":
        raise RuntimeError("cell failed: %r" % reply["content"])
    return "".join(out)


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def pss_kib(pid):
    total = 0
    for p in [pid] + descendants(pid):
        try:
            with open("/proc/%d/smaps_rollup" % p) as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def descendants(pid):
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(name))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def kernel_pid(km):
    prov = getattr(km, "provisioner", None)
    proc = getattr(prov, "process", None) or getattr(km, "kernel", None)
    return proc.pid


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ready", type=int, default=5)
    ap.add_argument("--roundtrip", type=int, default=200)
    ap.add_argument("--print", dest="prints", type=int, default=20)
    ap.add_argument("--pss", type=int, default=10)
    ap.add_argument("--episodes", type=int, default=0)
    args = ap.parse_args()

    if args.episodes:
        eps = []
        for _ in range(args.episodes):
            t0 = time.perf_counter()
            km, kc = start()
            run(kc, IMPORTS)
            if run(kc, "print(17 * 23)").strip() != "391":
                raise RuntimeError("the episode's cell did not print 391")
            stop(km, kc)
            eps.append(time.perf_counter() - t0)
        ms = statistics.median(eps) * 1000
        print(json.dumps({"episode_ms": ms, "episodes_per_s": 1000 / ms}))
        return

    ready = []
    for _ in range(args.ready):
        t0 = time.perf_counter()
        km, kc = start()
        run(kc, IMPORTS)
        ready.append(time.perf_counter() - t0)
        stop(km, kc)

    km, kc = start()
    run(kc, IMPORTS)
    rt = []
    for _ in range(args.roundtrip):
        t0 = time.perf_counter()
        if run(kc, "1+1").strip() != "2":
            raise RuntimeError("1+1 did not print 2")
        rt.append(time.perf_counter() - t0)
    pr = []
    for _ in range(args.prints):
        t0 = time.perf_counter()
        if len(run(kc, "print('x' * (1 << 20))")) < 1 << 20:
            raise RuntimeError("the 1 MiB print came back short")
        pr.append(time.perf_counter() - t0)
    stop(km, kc)

    kernels = []
    try:
        for _ in range(args.pss):
            km, kc = start()
            run(kc, IMPORTS + "\nimport pandas as pd, numpy as np\npd.DataFrame(np.zeros((3, 3))).sum().sum()")
            kernels.append((km, kc))
        time.sleep(0.5)
        pss = [pss_kib(kernel_pid(km)) for km, _ in kernels]
    finally:
        for km, kc in kernels:
            stop(km, kc)

    json.dump({
        "ready_ms": statistics.median(ready) * 1e3,
        "roundtrip_us": statistics.median(rt) * 1e6,
        "print_1mib_ms": statistics.median(pr) * 1e3,
        "pss1_mib": pss[0] / 1024,
        "pss10_mib": sum(pss) / 1024,
        "python": sys.version.split()[0],
    }, sys.stdout)
    print()


if __name__ == "__main__":
    main()
