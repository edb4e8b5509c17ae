#!/usr/bin/env bash
# Builds a locked Python environment: scripts/pyenv.sh NAME installs
# pyenv/NAME.lock into $SYNTH_PYENV_ROOT/NAME-<hash> (default root
# /opt/synth/python), where <hash> is the first 12 hex digits of the lock's
# sha256. synth finds the sandbox environment there by the hash of the lock it
# was built with (synth doctor prints the path).
#
# - From Debian's Python 3.11 (python3-venv), never the python3 first on PATH.
# - pip --require-hashes --no-deps: every file installed is pinned by hash in
#   the lock; wheels only, except the packages listed in pyenv/NAME.sdist,
#   built from their hashed source with the environment's own setuptools.
# - With a file pyenv/NAME.ignore-requires-python, pip installs with
#   --ignore-requires-python (harbor declares Python >=3.12; its lock is
#   resolved for 3.12 and installed on 3.11).
# - Packages that pyenv/NAME.omit leaves out of the lock (torch's CUDA
#   libraries in the pytest environment) are accepted as missing by pip check.
# - Idempotent and cached by the lock's hash: a built environment carries a
#   .complete marker, and a second run does nothing, offline. An interrupted
#   build (no marker) is removed and built again.
# - A failed install names the package pip could not install, and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

# scripts/pyenv.sh --python NAME prints the environment's interpreter path.
print=""
if [ "${1:-}" = "--python" ]; then print=1; shift; fi
name=${1:?usage: scripts/pyenv.sh [--python] NAME (sandbox, parity, pytest, serve or harbor: pyenv/NAME.lock)}
lock=pyenv/$name.lock
[ -f "$lock" ] || { echo "pyenv: $lock not found" >&2; exit 2; }
hash=$(sha256sum "$lock" | cut -c1-12)
root=${SYNTH_PYENV_ROOT:-/opt/synth/python}
dir=$root/$name-$hash
base=/usr/bin/python3.11
if [ -n "$print" ]; then echo "$dir/bin/python"; exit 0; fi

if [ -f "$dir/.complete" ]; then
  exit 0
fi
if [ ! -x "$base" ] || ! "$base" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "pyenv: $base with venv is missing: install Debian's python3-venv (scripts/deps.sh does)" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ] && ! mkdir -p "$root" 2>/dev/null; then sudo="sudo"; fi
umask 022
$sudo rm -rf "$dir"
$sudo mkdir -p "$root"
echo "pyenv: building the $name environment from $lock into $dir"
start=$(date +%s)
$sudo "$base" -m venv "$dir"

nobin=()
if [ -f "pyenv/$name.sdist" ]; then
  while read -r pkg _; do
    [[ -z "$pkg" || "$pkg" == \#* ]] || nobin+=(--no-binary "$pkg")
  done < "pyenv/$name.sdist"
fi
if [ -f "pyenv/$name.ignore-requires-python" ]; then nobin+=(--ignore-requires-python); fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! $sudo env PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 "$dir/bin/python" -I -m pip install \
    --require-hashes --no-deps --only-binary :all: "${nobin[@]}" --no-build-isolation \
    --progress-bar off -r "$lock" >"$log" 2>&1; then
  grep -E '^(ERROR|error)|No matching distribution|THESE PACKAGES DO NOT MATCH|Could not|Failed' "$log" | head -20 >&2 || tail -20 "$log" >&2
  pkg=$(grep -oE '(for|satisfies the requirement|building wheel for|Collecting) [A-Za-z0-9_.-]+' "$log" | tail -1 | awk '{print $NF}')
  echo "pyenv: installing the $name environment from $lock failed${pkg:+ at package $pkg}; the full log was:" >&2
  tail -5 "$log" >&2
  $sudo rm -rf "$dir"
  exit 1
fi
# pip check, less the requirements pyenv/NAME.omit leaves out on purpose
# (lines "torch 2.15.0 requires nvidia-cublas, which is not installed.").
omitted() {
  local pat req
  [ -f "pyenv/$name.omit" ] || return 1
  req=$(sed -nE 's/^.* requires ([A-Za-z0-9_.-]+).*which is not installed\.$/\1/p' <<<"$1")
  [ -n "$req" ] || return 1
  req=${req,,}
  while read -r pat _; do
    [[ -z "$pat" || "$pat" == \#* ]] && continue
    # shellcheck disable=SC2053
    if [[ "$req" == $pat ]]; then return 0; fi
  done < "pyenv/$name.omit"
  return 1
}
$sudo "$dir/bin/python" -I -m pip check >"$log" 2>&1 || true
broken=$(while IFS= read -r line; do
  [ -z "$line" ] || [[ "$line" == "No broken requirements found." ]] || omitted "$line" || echo "$line"
done < "$log")
if [ -n "$broken" ]; then
  echo "$broken" >&2
  echo "pyenv: the $name environment from $lock is inconsistent (pip check above); fix the lock with make lock" >&2
  $sudo rm -rf "$dir"
  exit 1
fi
echo "$hash" | $sudo tee "$dir/.complete" >/dev/null
echo "pyenv: $name environment ready in $(( $(date +%s) - start )) s: $dir ($(du -sh "$dir" | cut -f1))"
