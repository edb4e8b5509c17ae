#!/bin/sh
# Measures synth serve (Go benchmarks in serve/bench_test.go, over HTTP on
# loopback) against a Jupyter kernel per episode, and prints a Markdown table
# for docs/PERFORMANCE.md.
#
#   scripts/bench-serve.sh              (make bench calls it)
#   BENCH_N=30 scripts/bench-serve.sh   (fewer iterations, for a quick look)
#   BENCH_CAPACITY_ONLY=1 BENCH_CLIENTS=1,4,16 BENCH_LIVE=64,256 BENCH_EPISODES=60 scripts/bench-serve.sh
#                                       (only the capacity sweep, at the levels given)
#   BENCH_BURST_ONLY=1 BENCH_BURST=512 BENCH_BURST_LIVE=0,1536 scripts/bench-serve.sh
#                                       (only the reset bursts: BenchmarkBurst in
#                                       serve/burst_bench_test.go, with 2 spares and with
#                                       as many spares as the burst)
#
# The capacity sweep (BenchmarkCapacity, BenchmarkLive in
# serve/capacity_bench_test.go) prints a second table: at each number of
# clients, episodes per second, reset / step overhead / verdict p50 and p99,
# the success rate and the load average; at each number of live episodes,
# PSS per live session and a step's overhead with all of them live.
#
# Needs Go and the locked sandbox environment; the Jupyter side needs the
# parity environment (PYENVS=parity scripts/deps.sh, which make bench runs).
set -eu
cd "$(dirname "$0")/.."
N=${BENCH_N:-200}
PY=${PYTHON:-$(scripts/pyenv.sh --python parity)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

capacity() {
	E=${BENCH_EPISODES:-100}
	echo "serve: capacity sweep (clients ${BENCH_CLIENTS:-1,4,16,64}, $E episodes each; live ${BENCH_LIVE:-64,256}) ..." >&2
	go test -run '^$' -bench 'BenchmarkCapacity' -benchtime "${E}x" -timeout 60m ./serve/ >"$out/cap.txt"
	go test -run '^$' -bench 'BenchmarkLive' -benchtime 1x -timeout 60m ./serve/ >>"$out/cap.txt"
	# field NAME UNIT: the value line NAME reported in UNIT.
	field() { awk -v b="$1" -v u="$2" '$1 ~ "^"b"(-[0-9]+)?$" { for (i = 3; i < NF; i++) if ($(i+1) == u) print $i }' "$out/cap.txt"; }
	echo "Capacity sweep: $(date -u +%F) on $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2/1048576 }' /proc/meminfo); $E whole episodes per level (reset, one cell, the answer, verification), --max-episodes = clients."
	echo
	echo "| clients | episodes/s | reset p50 / p99 | step overhead p50 / p99 | verdict p50 / p99 | success | load average |"
	echo "|---:|---:|---:|---:|---:|---:|---:|"
	for c in $(echo "${BENCH_CLIENTS:-1,4,16,64}" | tr , ' '); do
		b=BenchmarkCapacity/c=$c
		echo "| $c | $(field "$b" episodes/s) | $(field "$b" reset-p50-ms) / $(field "$b" reset-p99-ms) ms | $(field "$b" overhead-p50-ms) / $(field "$b" overhead-p99-ms) ms | $(field "$b" verdict-p50-ms) / $(field "$b" verdict-p99-ms) ms | $(field "$b" success-%)% | $(field "$b" load1) |"
	done
	echo
	echo "| live episodes | opened (success) | PSS per live session | reset p50 / p99 (16 clients) | step overhead p50 / p99 with all live | load average |"
	echo "|---:|---:|---:|---:|---:|---:|"
	for n in $(echo "${BENCH_LIVE:-64,256}" | tr , ' '); do
		b=BenchmarkLive/live=$n
		echo "| $n | $(field "$b" live) ($(field "$b" success-%)%) | $(field "$b" pss-MiB/session) MiB | $(field "$b" reset-p50-ms) / $(field "$b" reset-p99-ms) ms | $(field "$b" overhead-all-live-p50-ms) / $(field "$b" overhead-all-live-p99-ms) ms | $(field "$b" load1) |"
	done
}
burst() {
	B=${BENCH_BURST:-512}
	L=${BENCH_BURST_LIVE:-0,1536}
	echo "serve: bursts of $B resets with $L live, spares 2 and $B ..." >&2
	for sp in 0 "$B"; do
		BENCH_BURST=$B BENCH_BURST_LIVE=$L BENCH_SPARES=$sp go test -run '^$' -bench 'BenchmarkBurst' -benchtime 1x -timeout 60m ./serve/ |
			sed "s|^BenchmarkBurst/|BenchmarkBurst/spares=$sp/|" >>"$out/burst.txt"
	done
	field() { awk -v b="$1" -v u="$2" '$1 ~ "^"b"(-[0-9]+)?$" { for (i = 3; i < NF; i++) if ($(i+1) == u) print $i }' "$out/burst.txt"; }
	echo "Reset bursts: $(date -u +%F) on $(nproc) cores; $B resets at once, each from a client of its own, with episodes live (each a real interpreter that ran a cell); spares = synth serve --spares (0: the default, 2)."
	echo
	echo "| live | spares | burst opened | reset p50 / p99 | burst wall time | load average |"
	echo "|---:|---:|---:|---:|---:|---:|"
	for sp in 0 "$B"; do
		for n in $(echo "$L" | tr , ' '); do
			b="BenchmarkBurst/spares=$sp/live=$n/burst=$B"
			echo "| $(field "$b" live) | $sp | $(field "$b" success-%)% | $(field "$b" reset-p50-ms) / $(field "$b" reset-p99-ms) ms | $(field "$b" burst-ms) ms | $(field "$b" load1) |"
		done
	done
}
if [ -n "${BENCH_BURST_ONLY:-}" ]; then
	burst
	exit 0
fi
if [ -n "${BENCH_CAPACITY_ONLY:-}" ]; then
	capacity
	exit 0
fi

echo "serve: go test -bench (N=$N) ..." >&2
go test -run '^$' -bench 'Benchmark(Reset|Step|Verify)$' -benchtime "${N}x" ./serve/ >"$out/go.txt"
go test -run '^$' -bench 'BenchmarkEpisodes' -benchtime "${N}x" ./serve/ >>"$out/go.txt"
jupyter="n/a"
if "$PY" -c 'import jupyter_client, ipykernel' 2>/dev/null; then
	echo "jupyter: scripts/bench-jupyter.py --episodes 5 ..." >&2
	"$PY" scripts/bench-jupyter.py --episodes 5 >"$out/jupyter.json"
	jupyter=$("$PY" -c "import json; print('%.3f' % json.load(open('$out/jupyter.json'))['episodes_per_s'])")
else
	echo "jupyter: skipped (the parity environment is not built: scripts/pyenv.sh parity)" >&2
fi

# metric BENCH UNIT: the value the Go benchmark BENCH reported in UNIT.
metric() {
	awk -v b="$1" -v u="$2" '$1 ~ "^"b"(-[0-9]+)?$" { for (i = 3; i < NF; i++) if ($(i+1) == u) print $i }' "$out/go.txt"
}
ratio() {
	[ "$jupyter" = n/a ] && { echo; return; }
	awk -v a="$1" -v b="$jupyter" 'BEGIN { printf "%.0fx a kernel per episode", a / b }'
}
e1=$(metric BenchmarkEpisodes/c=1 episodes/s)
e16=$(metric BenchmarkEpisodes/c=16 episodes/s)
e64=$(metric BenchmarkEpisodes/c=64 episodes/s)
echo "Measured $(date -u +%F) on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; N=$N."
echo
echo "| measure | synth serve | p90 | note |"
echo "|---|---|---|---|"
echo "| reset (a fresh sandbox with the task's file) | $(metric BenchmarkReset reset-p50-ms) ms | $(metric BenchmarkReset reset-p90-ms) ms | target <= 20 ms p50 |"
echo "| step of \`1 + 1\`, client's wall time | $(metric BenchmarkStep step-p50-ms) ms | $(metric BenchmarkStep step-p90-ms) ms | |"
echo "| step overhead over the cell's own run | $(metric BenchmarkStep overhead-p50-ms) ms | $(metric BenchmarkStep overhead-p90-ms) ms | target <= 2 ms p50 |"
echo "| last step with verification (teardown, collection, checks in a fresh sandbox) | $(metric BenchmarkVerify verify-p50-ms) ms | $(metric BenchmarkVerify verify-p90-ms) ms | |"
echo "| episodes per second, 1 client | $e1 | | $(ratio "$e1") |"
echo "| episodes per second, 16 clients | $e16 | | $(ratio "$e16") |"
echo "| episodes per second, 64 clients | $e64 | | $(ratio "$e64") |"
echo "| a Jupyter kernel per episode, episodes per second, 1 at a time (no verification) | $jupyter | | |"
echo
capacity
echo
burst
