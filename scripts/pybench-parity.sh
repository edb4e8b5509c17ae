#!/usr/bin/env bash
# PyBench parity: replays PyBench's published trajectories two ways in the
# same locked environment and compares them task by task.
#
#   scripts/pybench-parity.sh PYBENCH_CHECKOUT [OUT]      (OUT default: pybench-parity)
#
# PYBENCH_CHECKOUT is a checkout of github.com/Mercury7353/PyBench (nothing of
# it is copied into synth). Steps, each resumable (rerun the same command):
#   1. synth import pybench            -> OUT/bench
#   2. synth eval --teacher replay     -> OUT/synth-pybench (pybench scoring)
#                                         OUT/synth-strict  (strict scoring)
#   3. PyBench's way, in the parity environment (pyenv/parity.lock: the
#      sandbox's lock plus ipykernel, jupyter_client, nbclient): a copy of the
#      checkout in OUT/pybench-root; each recording's code in a fresh Jupyter
#      kernel per task (scripts/pybench_kernel.py run), then PyBench's
#      tests.py over the published messages and over this machine's. The
#      recordings hold `!pip install`, `!pip uninstall -y numpy` and
#      `!apt-get install` lines, so this side runs in bubblewrap: the system
#      and the environment read-only, no network, only OUT writable.
#   4. The per-task comparison, printed and written to OUT/parity.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: scripts/pybench-parity.sh PYBENCH_CHECKOUT [OUT]}
out=${2:-pybench-parity}
src=$(cd "$src" && pwd)
[ -f "$src/trajectory.jsonl" ] && [ -d "$src/data/unit_test" ] ||
  { echo "pybench-parity: $src is not a PyBench checkout (no trajectory.jsonl or data/unit_test)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

scripts/pyenv.sh sandbox
scripts/pyenv.sh parity
make -s build
parity=$(ls -d "${SYNTH_PYENV_ROOT:-/opt/synth/python}"/parity-"$(sha256sum pyenv/parity.lock | cut -c1-12)")/bin/python

[ -f "$out/bench/tasks.jsonl" ] || bin/synth import pybench "$src" -o "$out/bench"
bin/synth eval --bench "$out/bench" --teacher replay --trajectories "$src/trajectory.jsonl" -o "$out/synth-pybench"
bin/synth eval --bench "$out/bench" --teacher replay --trajectories "$src/trajectory.jsonl" --scoring strict -o "$out/synth-strict"

root=$out/pybench-root
if [ ! -d "$root" ]; then
  mkdir -p "$root.tmp"
  cp -a "$src/." "$root.tmp/"
  rm -rf "$root.tmp/output"
  mv "$root.tmp" "$root"
fi
contained() { # runs a command with the system read-only, no network, OUT writable
  bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind "$out" "$out" \
    --unshare-net --unshare-pid --die-with-parent --chdir / \
    --setenv HOME /tmp --setenv PATH /usr/bin:/bin --setenv JUPYTER_RUNTIME_DIR /tmp/jupyter \
    --setenv IPYTHONDIR /tmp/ipython --setenv MPLCONFIGDIR /tmp/mpl --setenv MPLBACKEND Agg "$@"
}
contained "$parity" -I "$PWD/scripts/pybench_kernel.py" run --root "$root" --trajectories "$src/trajectory.jsonl" --out "$out/local-trajectory.jsonl"
cp "$src/trajectory.jsonl" "$out/published-trajectory.jsonl"
contained "$parity" -I "$PWD/scripts/pybench_kernel.py" grade --root "$root" --trajectories "$out/published-trajectory.jsonl" --out "$out/pybench-published.json"
contained "$parity" -I "$PWD/scripts/pybench_kernel.py" grade --root "$root" --trajectories "$out/local-trajectory.jsonl" --out "$out/pybench-local.json"

{
  for mode in pybench strict; do
    for msgs in published local; do
      "$parity" -I scripts/pybench_kernel.py compare --label "synth $mode mode vs PyBench's harness, $msgs messages" \
        --pybench "$out/pybench-$msgs.json" --synth "$out/synth-$mode/results.jsonl"
    done
  done
} | tee "$out/parity.txt"
