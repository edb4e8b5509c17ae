#!/usr/bin/env bash
# Verification cost per rollout: one fresh verification sandbox from a warm
# backend, a typical task's files linked in (a table, an image, an answer),
# the interpreter isolated and the checks run (checks.BenchmarkVerify); and
# the same checks with a produced module loaded in a child
# (BenchmarkVerifyModule). See docs/PERFORMANCE.md, "Verification".
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench 'BenchmarkVerify' -benchtime "${BENCH_N:-50}x" -count "${BENCH_COUNT:-3}" ./checks/
