#!/usr/bin/env bash
# Installs what synth needs and the machine lacks: Debian's Python 3.11 with
# venv, bubblewrap for the sandbox and ffmpeg for audio; the sandbox's locked
# Python environment (scripts/pyenv.sh sandbox, from pyenv/sandbox.lock); and
# the npm packages the tests read Parquet with.
# Usage: scripts/deps.sh [DEBIAN-PACKAGE...]. Idempotent: a second run
# installs nothing and needs no network. Needs root (or sudo) only when
# something is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# The base of the locked environment (Debian's Python 3.11 and its venv),
# bubblewrap for the sandbox, ffmpeg for pydub and moviepy, and npm for the
# DuckDB Parquet reader of the tests.
debs=(python3 python3-venv bubblewrap ffmpeg)
command -v npm >/dev/null || debs+=(npm)
# More packages for one purpose: arguments (make test, make bench pass theirs)
# and EXTRA_DEBS, e.g. EXTRA_DEBS="python3-ipykernel" make demo
read -r -a extra <<< "${EXTRA_DEBS:-}"
debs+=("$@" "${extra[@]}")

missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "deps: installing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The sandbox's Python packages, locked by hash (cached by the lock's hash).
scripts/pyenv.sh sandbox
# More locked environments for one purpose: PYENVS="parity" make bench.
for env in ${PYENVS:-}; do scripts/pyenv.sh "$env"; done

if [ -f package.json ] && [ ! -d node_modules/@duckdb/node-api ]; then
  echo "deps: installing npm packages (DuckDB for the Parquet tests)"
  npm install --no-audit --no-fund --no-save --loglevel=error
fi
