#!/usr/bin/env bash
# Sharding overhead: one synth build against synth plan, three synth rollout
# shards in parallel on this machine, and synth merge, over the same config
# (the built-in corpus, the reference teacher). Each shard runs a third of
# the build's rollouts in flight, so both keep the same number of sandboxes
# busy. Prints wall times and the overhead; see docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH" CI=true
go build -o bin/synth ./cmd/synth
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
config=(--templates "${BENCH_TEMPLATES:-table.,text.}")
cpus=$(nproc)
per=$(( (cpus + 2) / 3 ))
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { print b - a }'; }

t0=$(now)
bin/synth build -o "$tmp/built" --concurrency "$cpus" "${config[@]}" >/dev/null 2>&1
t1=$(now)
bin/synth plan -o "$tmp/run" --concurrency "$cpus" "${config[@]}" >/dev/null 2>&1
t2=$(now)
for i in 1 2 3; do
  bin/synth rollout -o "$tmp/run" --shard "$i/3" --concurrency "$per" >/dev/null 2>&1 &
done
wait
t3=$(now)
bin/synth merge -o "$tmp/run" >/dev/null 2>&1
t4=$(now)

cmp -s "$tmp/built/dataset/data/train-00000-of-00001.parquet" "$tmp/run/dataset/data/train-00000-of-00001.parquet" \
  && same="identical" || same="DIFFERENT"
rows=$(grep -c . "$tmp/built/plan.jsonl")
build=$(secs "$t0" "$t1"); plan=$(secs "$t1" "$t2"); shards=$(secs "$t2" "$t3"); merge=$(secs "$t3" "$t4")
total=$(awk -v a="$plan" -v b="$shards" -v c="$merge" 'BEGIN { print a + b + c }')
printf 'sharding: %d training tasks, %d CPUs, %d in flight per shard\n' "$rows" "$cpus" "$per"
printf '  build                 %6.1f s\n' "$build"
printf '  plan                  %6.1f s\n' "$plan"
printf '  3 rollout shards      %6.1f s\n' "$shards"
printf '  merge                 %6.1f s\n' "$merge"
printf '  plan + shards + merge %6.1f s  (%+.0f%% against build; Parquet %s)\n' "$total" "$(awk -v t="$total" -v b="$build" 'BEGIN { print (t / b - 1) * 100 }')" "$same"
