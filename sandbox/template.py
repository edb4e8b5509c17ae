
# The rest of the resident module synth_inputs (template.go adds ROOT, the
# folder holding data/; READS, a JSON list of {"name", "call"}; MEMORY, the
# bytes of address space the reads may add; CPU, their seconds of CPU time).
# The zygote calls load() once, before it forks anything; every cell then
# finds the frames in its global inputs (driver.py, CELL_GLOBALS).

import json
import os
import resource
import signal
import sys

inputs = {}
__synth_globals__ = {"inputs": inputs}


class PreloadError(Exception):
    pass


def _cpu_limit(signum, frame):
    raise PreloadError("it used more than the %d s of CPU time preloading allows" % CPU)


def _vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def load():
    """Reads every input of READS with its call, inside ROOT, its address
    space and CPU time bounded by MEMORY and CPU (soft limits, put back
    after). A read that fails raises an error naming the file, which the
    zygote reports to synth."""
    import pandas as pd
    env = {"pd": pd, "__builtins__": __builtins__}
    old_as = resource.getrlimit(resource.RLIMIT_AS)
    old_cpu = resource.getrlimit(resource.RLIMIT_CPU)
    old_handler = signal.signal(signal.SIGXCPU, _cpu_limit)
    used = resource.getrusage(resource.RUSAGE_SELF)
    cap = lambda v, hard: v if hard == resource.RLIM_INFINITY else min(v, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap(_vm_size() + MEMORY, old_as[1]), old_as[1]))
    resource.setrlimit(resource.RLIMIT_CPU, (cap(int(used.ru_utime + used.ru_stime) + CPU, old_cpu[1]), old_cpu[1]))
    os.chdir(ROOT)
    try:
        for r in json.loads(READS):
            name = r["name"]
            sys.stderr.write("synth preload: reading %s\n" % name)  # names the file if the read kills the zygote
            try:
                inputs[name] = eval(r["call"], env)
            except MemoryError:
                raise PreloadError("%s: it needs more than the %d MiB of memory preloading allows" % (name, MEMORY >> 20)) from None
            except BaseException as e:
                raise PreloadError("%s: %s: %s" % (name, type(e).__name__, e)) from None
    finally:
        os.chdir("/")
        resource.setrlimit(resource.RLIMIT_AS, old_as)
        resource.setrlimit(resource.RLIMIT_CPU, old_cpu)
        signal.signal(signal.SIGXCPU, old_handler)
