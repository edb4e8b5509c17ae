#!/bin/sh
# Measures episodes forked from a template that already read a task's
# input (synth serve --preload) against a fresh interpreter that reads it,
# interleaved in one run, on a CSV of SYNTH_PRELOAD_MB megabytes (100)
# written by the benchmark; prints the reset and reset-plus-frame p50 and
# p99 of each, and the load, for docs/PERFORMANCE.md.
#
#   scripts/bench-preload.sh                 (make bench calls it)
#   BENCH_ROUNDS=4 scripts/bench-preload.sh  (fewer rounds)
#
# Needs root (templates bind a read-only data/ into each workspace) and the
# locked sandbox environment; skipped otherwise.
set -eu
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
	echo "preload: skipped (needs root)" >&2
	exit 0
fi
go test -count=1 -run '^$' -bench 'BenchmarkPreloadedReset$' -benchtime "${BENCH_ROUNDS:-10}x" ./sandbox/ | grep '^preload:' | tail -3
