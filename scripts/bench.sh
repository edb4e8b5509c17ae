#!/usr/bin/env bash
# Runs synth's benchmarks and prints their figures; docs/PERFORMANCE.md
# records a run. Timings vary with the machine's load: run it on a quiet one.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
for part in scripts/bench-*.sh; do
  [ -x "$part" ] || continue
  echo "== $part"
  "$part"
done
