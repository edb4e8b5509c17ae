#!/usr/bin/env bash
# Rollout throughput: the openai teacher against a fake endpoint with 200 ms
# per reply, three replies per rollout, at concurrency 1, 16, 64 and 256,
# with an in-process sandbox and with the real one; SYNTH_BENCH_ROUNDS sets
# how many rollouts each worker plays (default 4). See docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench 'RolloutThroughput' -benchtime 1x -count "${BENCH_COUNT:-3}" ./agent/
