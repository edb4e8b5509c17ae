#!/usr/bin/env bash
# Installs what synth needs and the machine lacks: Debian's Python runtime
# with the packages tasks use, bubblewrap for the sandbox, and the npm
# packages the tests read Parquet with. Usage: scripts/deps.sh [DEBIAN-PACKAGE...] Idempotent: a second run installs
# nothing. Needs root (or sudo) only when something is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Python runtime tasks run in, and bubblewrap for the sandbox. Templates
# that need modules beyond these (wordcloud, pydub, opencv) are skipped, each
# with a line saying what to install (synth doctor lists them).
debs=(python3 python3-pandas python3-numpy python3-matplotlib python3-openpyxl
      python3-pil python3-scipy python3-sklearn python3-sympy python3-pypdf
      python3-docx python3-qrcode bubblewrap)
# More packages for one purpose: arguments (make test, make bench pass theirs)
# and EXTRA_DEBS, e.g. EXTRA_DEBS="python3-pydub ffmpeg" make demo
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

if [ -f package.json ] && [ ! -d node_modules/@duckdb/node-api ]; then
  if command -v npm >/dev/null; then
    echo "deps: installing npm packages (DuckDB for the Parquet tests)"
    npm install --no-audit --no-fund --no-save --loglevel=error
  else
    echo "deps: npm not found: the tests that read Parquet with DuckDB will be skipped" >&2
  fi
fi
