#!/bin/sh
# Measures synth's sandbox against a Jupyter kernel in one run on this
# machine, and prints a Markdown table for docs/PERFORMANCE.md.
#
#   scripts/bench-sandbox.sh            (make bench calls it)
#   BENCH_N=50 scripts/bench-sandbox.sh (fewer iterations, for a quick look)
#
# Needs Go, the locked sandbox environment, and for the Jupyter side the
# parity environment (the same packages plus ipykernel and jupyter_client:
# PYENVS=parity scripts/deps.sh, which make bench runs). Run as
# root for the sandbox's full isolation (namespaces, uids, bubblewrap); the
# table says which isolation was on.
set -eu
cd "$(dirname "$0")/.."
N=${BENCH_N:-200}
PY=${PYTHON:-$(scripts/pyenv.sh --python parity)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "sandbox: go test -bench (N=$N) ..." >&2
go test -run '^$' -bench 'Benchmark(Open|OpenBackToBack|OpenFirstCell|RoundTrip|Print1MiB)$' -benchtime "${N}x" ./sandbox/ >"$out/go.txt"
go test -run '^$' -bench 'BenchmarkIdlePSS' -benchtime 1x ./sandbox/ >>"$out/go.txt"
go test -run 'TestDoctor' -v ./sandbox/ 2>&1 | grep -E 'doctor_test.go:[0-9]+: +(bubblewrap|mount namespace|pid namespace|network namespace|unprivileged uid) ' >"$out/layers.txt" || true

jupyter="n/a"
if "$PY" -c 'import jupyter_client, ipykernel' 2>/dev/null; then
	echo "jupyter: scripts/bench-jupyter.py ..." >&2
	"$PY" scripts/bench-jupyter.py --roundtrip "$N" >"$out/jupyter.json"
	jupyter=ok
else
	echo "jupyter: skipped (the parity environment is not built: scripts/pyenv.sh parity)" >&2
fi

metric() { # benchmark name, unit -> value
	awk -v b="$1" -v u="$2" '$1 ~ "^"b"(-[0-9]+)?$" { for (i = 2; i < NF; i++) if ($(i+1) == u) print $i }' "$out/go.txt" | head -1
}
jmetric() {
	[ "$jupyter" = ok ] || { echo "n/a"; return; }
	"$PY" -c "import json,sys; print('%.${2:-1}f' % json.load(open('$out/jupyter.json'))['$1'])"
}
share() { # a b -> a/b as "N% of"
	"$PY" -c "import sys
try: print('%.0f%% of' % (100 * float('$1') / float('$2')))
except Exception: print('n/a')"
}
ratio() { # a b -> b/a as "Nx"
	"$PY" -c "import sys
try: print('%.0fx' % (float('$2') / float('$1')))
except Exception: print('n/a')"
}

open_ms=$(metric BenchmarkOpen median-ms)
b2b_ms=$(metric BenchmarkOpenBackToBack median-ms)
first_ms=$(metric BenchmarkOpenFirstCell median-ms)
rt_us=$(metric BenchmarkRoundTrip median-us)
pr_ms=$(metric BenchmarkPrint1MiB median-ms)
pss1=$(metric BenchmarkIdlePSS/1 PSS-MiB)
pss10=$(metric BenchmarkIdlePSS/10 PSS-MiB)
own1=$(metric BenchmarkIdlePSS/1 children-PSS-MiB)
j_ready=$(jmetric ready_ms 0)
j_rt=$(jmetric roundtrip_us 0)
j_pr=$(jmetric print_1mib_ms 1)
j_pss1=$(jmetric pss1_mib 0)
j_pss10=$(jmetric pss10_mib 0)

echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; medians; N=$N."
echo "Isolation: $(sed -E 's/.*doctor_test.go:[0-9]+: +(.*[a-z]) +(true|false) .*/\1 \2/; s/true$/on/; s/false$/off/' "$out/layers.txt" | paste -sd, - | sed 's/,/, /g')."
echo
echo "| measure | synth sandbox | Jupyter kernel | ratio | target |"
echo "|---|---|---|---|---|"
echo "| ready interpreter with numpy, pandas, matplotlib (warm pool) | ${open_ms} ms | ${j_ready} ms | $(ratio "$open_ms" "$j_ready") faster | <= 10 ms, 200x |"
echo "| ready interpreter, Open right after a Close (spares not refilled) | ${b2b_ms} ms | | $(ratio "$b2b_ms" "$j_ready") faster | |"
echo "| ready interpreter and its first \`1+1\` result (warm pool) | ${first_ms} ms | | $(ratio "$first_ms" "$j_ready") faster | |"
echo "| \`1+1\` round trip | ${rt_us} µs | ${j_rt} µs | $(ratio "$rt_us" "$j_rt") faster | <= 500 µs |"
echo "| print 1 MiB | ${pr_ms} ms | ${j_pr} ms | $(ratio "$pr_ms" "$j_pr") faster | |"
echo "| PSS, 1 idle interpreter, all processes (zygote, 2 spares, bwrap included) | ${pss1} MiB | ${j_pss1} MiB | $(share "$pss1" "$j_pss1") | <= 1/4 |"
echo "| PSS, 1 idle interpreter, the interpreter's own | ${own1} MiB | ${j_pss1} MiB | $(share "$own1" "$j_pss1") | <= 1/4 |"
echo "| PSS, 10 idle interpreters, all processes | ${pss10} MiB | ${j_pss10} MiB | $(share "$pss10" "$j_pss10") | <= 1/4 |"
