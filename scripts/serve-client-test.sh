#!/usr/bin/env bash
# OpenEnv's own client (openenv-core, pyenv/serve.lock) against `synth serve`
# on loopback: every reference solution of pipeline/testdata/evalbench gets
# reward 1 (both prompt formats), an empty and a forging episode get 0
# (scripts/serve_client_test.py, run by pytest). Then the server is stopped
# with SIGINT: it must exit 0 and have recorded every finished episode.
# Needs the sandbox environment (make deps) and builds the serve environment
# (scripts/pyenv.sh serve) if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH

scripts/pyenv.sh serve
py=$(scripts/pyenv.sh --python serve)
tmp=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill "$server"; wait "$server" || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/synth" ./cmd/synth
bench=pipeline/testdata/evalbench
"$tmp/synth" serve "$bench" --addr 127.0.0.1:0 --record "$tmp/episodes" >"$tmp/out" 2>"$tmp/err" &
server=$!
for _ in $(seq 1 300); do
  grep -q '^serving' "$tmp/out" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$tmp/err" >&2; echo "serve-client-test: synth serve exited" >&2; exit 1; }
  sleep 0.1
done
url=$(grep -o 'http://[0-9.:]*' "$tmp/out" | head -1)
[ -n "$url" ] || { cat "$tmp/out" "$tmp/err" >&2; echo "serve-client-test: synth serve printed no address" >&2; exit 1; }
echo "serve-client-test: synth serve on $url"

SYNTH_SERVE_URL=$url SYNTH_BENCH=$bench "$py" -I -B -m pytest -q -p no:cacheprovider scripts/serve_client_test.py

curl -sf "$url/metrics" >"$tmp/metrics.json"
kill -INT "$server"
rc=0; wait "$server" || rc=$?
server=""
[ "$rc" -eq 0 ] || { cat "$tmp/err" >&2; echo "serve-client-test: synth serve exited $rc after SIGINT, want 0" >&2; exit 1; }
n=$(wc -l <"$tmp/episodes/results.jsonl")
passed=$(grep -c '"passed":true' "$tmp/episodes/results.jsonl" || true)
echo "serve-client-test: $n episodes recorded, $passed with reward 1; $(cat "$tmp/err" | grep 'serve: stopped')"
[ "$n" -eq 7 ] && [ "$passed" -eq 5 ] || { echo "serve-client-test: want 7 recorded episodes, 5 passed" >&2; exit 1; }
"$py" -I -c 'import json,sys; m=json.load(open(sys.argv[1])); print("serve-client-test: metrics:", json.dumps({k: m[k] for k in ("counts", "mean_reward")}))' "$tmp/metrics.json"
