#!/usr/bin/env bash
# Filter cost per task in the worst case: n tasks of one phrasing (3-word
# shingle Jaccard about 0.6) in one scope, for dedup and for
# decontamination against n benchmark tasks of that phrasing. Reports CPU
# microseconds per task (us/task), which should not grow with n
# (docs/PERFORMANCE.md, "Scaling"). Then the manifest's worst case: n
# identical files collected, with CPU microseconds and files.jsonl bytes
# per file, neither of which should grow with n.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench 'Benchmark(Dedup|Decon)WorstCase' -benchtime 1x ./filters/
go test -run '^$' -bench 'BenchmarkCollectDuplicates' -benchtime 1x ./pipeline/
