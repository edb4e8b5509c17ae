#!/bin/sh
# Measures the cold start of synth (a fresh `synth sandbox exec` of
# `import pandas; 1+1`, and a fresh `synth serve` to its first reset) against
# a Jupyter kernel started, run and stopped, interleaved in one run, and
# prints a Markdown table for docs/PERFORMANCE.md.
#
#   scripts/bench-coldstart.sh                       (make bench calls it)
#   BENCH_ROUNDS=5 scripts/bench-coldstart.sh        (a quicker look)
#   BENCH_BASE=/path/to/old/synth scripts/bench-coldstart.sh
#                                                    (two builds side by side)
#
# Needs bin/synth (make build) and the locked sandbox environment; the
# Jupyter side needs the parity environment (PYENVS=parity scripts/deps.sh,
# which make bench runs), and is left out without it.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${BENCH_ROUNDS:-10}
SYNTH=${SYNTH:-bin/synth}
[ -x "$SYNTH" ] || go build -o "$SYNTH" ./cmd/synth
if PY=$(scripts/pyenv.sh --python parity 2>/dev/null) && "$PY" -c 'import jupyter_client, ipykernel' 2>/dev/null; then
	:
else
	echo "jupyter: left out (the parity environment is not built: scripts/pyenv.sh parity)" >&2
	PY=$(scripts/pyenv.sh --python sandbox)
fi
base=""
[ -n "${BENCH_BASE:-}" ] && base="--base $BENCH_BASE"
echo "cold start: scripts/bench-coldstart.py ($ROUNDS rounds) ..." >&2
out=$("$PY" scripts/bench-coldstart.py --synth "$SYNTH" --bench pipeline/testdata/evalbench --rounds "$ROUNDS" $base)
get() {
	"$PY" -c "import json,sys; d=json.loads(sys.argv[1]); v=d.get(sys.argv[2]); print('%.0f ms' % v if isinstance(v, float) else 'n/a')" "$out" "$1"
}
echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; medians of $ROUNDS interleaved rounds."
echo
echo "| cold start | synth | ${BENCH_BASE:+base build | }target |"
echo "|---|---|${BENCH_BASE:+---|}---|"
echo "| \`synth sandbox exec\` of \`import pandas\`, \`1+1\`: start to exit | $(get exec_ms) | ${BENCH_BASE:+$(get base_exec_ms) | }first interpreter <= 1 s |"
echo "| \`synth serve\`: start to \`serving\` (zygote warm) | $(get serve_ready_ms) | ${BENCH_BASE:+$(get base_serve_ready_ms) | }|"
echo "| \`synth serve\`: start to its first reset answered | $(get serve_reset_ms) | ${BENCH_BASE:+$(get base_serve_reset_ms) | }<= 1 s |"
echo "| Jupyter kernel: start, \`import pandas\`, \`1+1\`, shut down | $(get kernel_ms) | ${BENCH_BASE:+ | }synth ahead |"
