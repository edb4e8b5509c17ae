#!/usr/bin/python3
"""Measures synth's cold start against a Jupyter kernel's, interleaved in one
run (round i runs every subject once, in turn, so the machine's load falls on
all of them alike), and prints one JSON object of medians in milliseconds:

  exec_ms        `synth sandbox exec COLD` whole: the command starts (a fresh
                 zygote importing numpy, pandas, matplotlib), runs the cells
                 `import pandas` and `1+1`, tears down and exits
  serve_ready_ms `synth serve BENCH` from its start to the `serving` line (the
                 zygote is warm by then)
  serve_reset_ms ... to its first reset answered: a task's interpreter ready
  kernel_ms      a Jupyter kernel started, `import pandas` and `1+1` run, shut
                 down (with --no-kernel, or without jupyter_client: absent)
  base_*         the same for a second synth binary (--base), to compare two
                 builds in one run

Usage: bench-coldstart.py --synth BIN --bench DIR [--base BIN] [--rounds N]
"""

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

COLD = "import pandas\n1+1\n"


def timed_exec(synth, script):
    t0 = time.perf_counter()
    p = subprocess.run([synth, "sandbox", "exec", script], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if p.returncode != 0 or "2" not in p.stdout:
        raise RuntimeError("%s sandbox exec failed (%d): %s" % (synth, p.returncode, p.stderr[-500:]))
    return dt


def timed_serve(synth, bench):
    """Seconds to the `serving` line and to the first reset's answer."""
    t0 = time.perf_counter()
    p = subprocess.Popen([synth, "serve", bench, "--addr", "127.0.0.1:0"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    try:
        line = p.stdout.readline()
        ready = time.perf_counter() - t0
        m = re.search(r"on (http://[0-9.:]+)", line)
        if not m:
            raise RuntimeError("synth serve printed %r" % line)
        req = urllib.request.Request(m.group(1) + "/reset", data=b"{}",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            if json.load(r).get("observation") is None:
                raise RuntimeError("reset without an observation")
        reset = time.perf_counter() - t0
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(timeout=120)
    return ready, reset


def timed_kernel():
    from jupyter_client.manager import KernelManager
    t0 = time.perf_counter()
    km = KernelManager(kernel_name="python3")
    km.start_kernel(stderr=open(os.devnull, "w"))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=120)
    reply = kc.execute_interactive(COLD, timeout=120, output_hook=lambda m: None)
    if reply["content"]["status"] != "ok":
        raise RuntimeError("kernel cell failed: %r" % reply["content"])
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--synth", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--base")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--no-kernel", action="store_true")
    args = ap.parse_args()
    kernel = not args.no_kernel
    if kernel:
        try:
            import jupyter_client  # noqa: F401
            import ipykernel  # noqa: F401
        except ImportError:
            kernel = False
    os.environ.setdefault("MPLBACKEND", "Agg")
    script = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    script.write(COLD)
    script.close()
    got = {}

    def add(k, v):
        got.setdefault(k, []).append(v * 1e3)

    try:
        for _ in range(args.rounds):
            for prefix, synth in (("", args.synth), ("base_", args.base)):
                if not synth:
                    continue
                add(prefix + "exec_ms", timed_exec(synth, script.name))
                ready, reset = timed_serve(synth, args.bench)
                add(prefix + "serve_ready_ms", ready)
                add(prefix + "serve_reset_ms", reset)
            if kernel:
                add("kernel_ms", timed_kernel())
    finally:
        os.unlink(script.name)
    out = {k: statistics.median(v) for k, v in got.items()}
    out["rounds"] = args.rounds
    with open("/proc/loadavg") as f:
        out["loadavg"] = " ".join(f.read().split()[:3])
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
