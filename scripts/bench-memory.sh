#!/usr/bin/env bash
# synth's own peak memory against the task count: generates a run
# directory whose N training tasks and their rollouts are already journaled
# (pipeline.WriteBenchRun), runs synth build on it (plan, journal
# read-back, filters, emit; no sandbox, no teacher) and prints synth's peak
# resident memory (VmHWM) and bytes per task. MEMORY_N sets N (default
# 100000; MEMORY_N=1000000 takes about 20 minutes and 4 GB of disk on a 2-core
# machine). See docs/PERFORMANCE.md, "Scaling".
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
go build -o bin/synth ./cmd/synth
go build -o bin/planbench ./pipeline/cmd/planbench
for n in ${MEMORY_N:-10000 100000}; do
  bin/planbench -n "$n"
done
