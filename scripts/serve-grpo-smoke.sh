#!/usr/bin/env bash
# A few steps of TRL's GRPOTrainer with a tiny, randomly initialised model
# whose rollouts are episodes of `synth serve` on loopback
# (scripts/serve_grpo_smoke.py). It needs a Python with torch, transformers,
# trl and datasets, given as PYTHON: the pytest environment
# (scripts/pyenv.sh --python pytest) has them, and make test runs this script
# through pytests/test_serve_grpo.py.
#
#   PYTHON=/path/to/venv/bin/python scripts/serve-grpo-smoke.sh
#   PYTHON=... scripts/serve-grpo-smoke.sh env
#
# With "env", the trainer drives synth serve through TRL's environment_factory
# instead (scripts/serve_trl_env_smoke.py): multi-turn episodes whose tool
# calls run in the episode's interpreter, the server at its default turns.
set -euo pipefail
mode=${1:-rollout}
case "$mode" in rollout | env) ;; *) echo "serve-grpo-smoke: unknown mode $mode (want rollout or env)" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH
py=${PYTHON:?give PYTHON: an interpreter with torch, transformers, trl and datasets}
"$py" -I -c 'import torch, transformers, trl, datasets' || { echo "serve-grpo-smoke: $py lacks torch, transformers, trl or datasets" >&2; exit 1; }
tmp=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill "$server"; wait "$server" || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/synth" ./cmd/synth
bench=$PWD/pipeline/testdata/evalbench
# rollout: one turn is a whole episode: the model writes it, the verifier
# scores it. env: the episode ends when the reward function hands the
# model's final answer to the server.
turns=1 script=serve_grpo_smoke.py prefix=grpo
if [ "$mode" = env ]; then turns=10 script=serve_trl_env_smoke.py prefix=trl-env; fi
"$tmp/synth" serve "$bench" --addr 127.0.0.1:0 --max-turns "$turns" >"$tmp/out" 2>"$tmp/err" &
server=$!
for _ in $(seq 1 300); do
  grep -q '^serving' "$tmp/out" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$tmp/err" >&2; exit 1; }
  sleep 0.1
done
url=$(grep -o 'http://[0-9.:]*' "$tmp/out" | head -1)
(cd "$tmp" && TRL_EXPERIMENTAL_SILENCE=1 SYNTH_SERVE_URL=$url SYNTH_BENCH=$bench "$py" -I "$OLDPWD/scripts/$script") 2>&1 | grep "^$prefix:"
curl -sf "$url/metrics" | "$py" -I -c 'import json,sys; m=json.load(sys.stdin); print("serve-grpo-smoke: synth serve counted", json.dumps(m["counts"]))'
