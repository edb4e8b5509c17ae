#!/usr/bin/env bash
# Two `synth serve` processes on one machine share nothing they should not:
# each has its own port, episode ids, workspaces and cgroups; an episode id
# of one is unknown to the other; a file one episode writes is not seen by
# the other's; a third server starting (and sweeping what dead processes
# left) while both hold live episodes disturbs neither; and after SIGINT
# none of them leaves a workspace or a cgroup behind, counted by pid and path.
# Needs the sandbox environment (make deps). cmd/synth's TestTwoServers runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH

py=$(scripts/pyenv.sh --python sandbox)
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "serve-two-test: $*" >&2; exit 1; }

go build -o "$tmp/synth" ./cmd/synth
bench=pipeline/testdata/evalbench

# start NAME: a synth serve on a free port; sets url_NAME and pid_NAME.
start() {
  "$tmp/synth" serve "$bench" --addr 127.0.0.1:0 --max-episodes 4 >"$tmp/$1.out" 2>"$tmp/$1.err" &
  local p=$!
  pids+=("$p")
  for _ in $(seq 1 600); do
    grep -q '^serving' "$tmp/$1.out" 2>/dev/null && break
    kill -0 "$p" 2>/dev/null || { cat "$tmp/$1.err" >&2; fail "synth serve $1 exited"; }
    sleep 0.1
  done
  local u
  u=$(grep -o 'http://[0-9.:]*' "$tmp/$1.out" | head -1)
  [ -n "$u" ] || fail "synth serve $1 printed no address"
  printf -v "url_$1" '%s' "$u"
  printf -v "pid_$1" '%s' "$p"
}
# call URL PATH JSON: POST, prints "STATUS BODY".
call() { curl -s -o "$tmp/body" -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d "$3" "$1$2"; echo " $(cat "$tmp/body")"; }
field() { "$py" -I -c 'import json,sys; d=json.loads(sys.argv[1]); [d := d[k] for k in sys.argv[2:]]; print(d if not isinstance(d, (dict, list)) else json.dumps(d))' "$@"; }
step() { call "$1" /step "{\"episode_id\": \"$2\", \"action\": {\"content\": $(printf '%s' "$3" | "$py" -I -c 'import json,sys; print(json.dumps(sys.stdin.read()))')}}"; }
# workspaces PID / cgroups PID: what the backend of process PID holds.
workspaces() { ls -d "${TMPDIR:-/tmp}"/synth-ws-"$(printf '%07d' "$1")"-* 2>/dev/null | wc -l; }
cgroups() {
  local n=0 rel
  for rel in $(cut -d: -f3 /proc/self/cgroup | sort -u); do
    n=$((n + $(find /sys/fs/cgroup -maxdepth 6 -path "*${rel%/}/synth-$1-*" -type d 2>/dev/null | wc -l)))
  done
  echo "$n"
}

start a
start b
echo "serve-two-test: a on $url_a (pid $pid_a), b on $url_b (pid $pid_b)"
[ "$url_a" != "$url_b" ] || fail "both servers on $url_a"

# The same client id in both: each server's ids are its own.
for s in a b; do
  u=url_$s
  r=$(call "${!u}" /reset '{"task_id": "t-math", "episode_id": "same-1"}')
  [ "${r%% *}" = 200 ] || fail "$s: reset same-1: $r"
  r=$(call "${!u}" /reset '{"task_id": "t-math"}')
  [ "${r%% *}" = 200 ] || fail "$s: reset: $r"
  printf -v "own_$s" '%s' "$(field "${r#* }" observation episode_id)"
done
[ "$own_a" != "$own_b" ] || fail "both servers gave the id $own_a"
r=$(step "$url_b" "$own_a" 'Finished: 1')
[ "${r%% *}" = 404 ] || fail "b stepped a's episode $own_a: $r"

# a's episode writes a file; b's episode of the same client id sees its own workspace only.
r=$(step "$url_a" same-1 $'Action:\n```python\nimport os\nopen("marker-a.txt", "w").write("a")\nprint(os.getcwd(), sorted(os.listdir(".")))\n```')
[ "$(field "${r#* }" observation cell_status)" = ok ] || fail "a's cell: $r"
r=$(step "$url_b" same-1 $'Action:\n```python\nimport os, glob\nprint("seen:", sorted(os.listdir(".")), glob.glob("/tmp/synth-ws-*"), glob.glob("/tmp/**/marker-a.txt", recursive=True), glob.glob("/*/marker-a.txt"))\n```')
[ "$(field "${r#* }" observation cell_status)" = ok ] || fail "b's cell: $r"
case "$r" in *marker-a*) fail "b's episode sees a's file: $r" ;; esac

wa=$(workspaces "$pid_a"); wb=$(workspaces "$pid_b")
ca=$(cgroups "$pid_a"); cb=$(cgroups "$pid_b")
echo "serve-two-test: live: a holds $wa workspaces and $ca cgroups, b $wb and $cb"
[ "$wa" -ge 2 ] && [ "$wb" -ge 2 ] || fail "workspaces: a $wa, b $wb, want at least 2 each (the counter sees nothing)"

# A third server starts (its backend sweeps what dead processes left) while a and b hold live episodes.
start c
for s in a b; do
  u=url_$s
  r=$(step "${!u}" same-1 $'Action:\n```python\nprint(17 * 23)\n```')
  case "$r" in 200*391*) ;; *) fail "$s's episode after a third server started: $r" ;; esac
done
[ "$(workspaces "$pid_a")" = "$wa" ] && [ "$(workspaces "$pid_b")" = "$wb" ] || fail "a third server's start changed a's or b's workspaces"
[ "$(cgroups "$pid_a")" = "$ca" ] && [ "$(cgroups "$pid_b")" = "$cb" ] || fail "a third server's start changed a's or b's cgroups"

for s in a b c; do
  p=pid_$s
  kill -INT "${!p}"
  rc=0; wait "${!p}" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$tmp/$s.err" >&2; fail "synth serve $s exited $rc after SIGINT, want 0"; }
done
pids=()
left=0
for s in a b c; do
  p=pid_$s
  n=$(( $(workspaces "${!p}") + $(cgroups "${!p}") ))
  [ "$n" -eq 0 ] || echo "serve-two-test: $s (pid ${!p}) left $n workspaces and cgroups" >&2
  left=$((left + n))
done
[ "$left" -eq 0 ] || fail "$left workspaces and cgroups left behind"
echo "serve-two-test: ok: ports, episode ids, workspaces and cgroups are each server's own; nothing left after SIGINT"
