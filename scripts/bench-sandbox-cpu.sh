#!/usr/bin/env bash
# Infrastructure CPU per trivial rollout: synth, bubblewrap, the zygote and
# every interpreter, user and system time, per rollout of two trivial cells
# run one after another from a warm pool, alone and followed by a
# verification-sized sandbox (sandbox.BenchmarkRolloutCPU, cpu-ms/rollout).
# CPU time, not wall time, so the figure holds on a shared machine; the
# rate at concurrency 64 is in scripts/bench-rollout.sh. See
# docs/PERFORMANCE.md, "Sandbox CPU per rollout".
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench 'BenchmarkRolloutCPU' -benchtime "${BENCH_N:-200}x" -count "${BENCH_COUNT:-3}" ./sandbox/
