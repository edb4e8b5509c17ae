#!/usr/bin/env bash
# Runs a command (default: CI=true make test) as on a fresh machine: in a
# throwaway mount namespace where every Python package the set-up did not
# install is hidden, so a test that leans on one fails here instead of on a
# new user's machine.
#
# Hidden (an empty read-only tmpfs over each, seen only by the command):
#   ~/.pyenv                          the pyenv Pythons and their shims
#   ~/.local/lib                      pip --user packages
#   /usr/lib/python3/dist-packages    Debian's python3-* packages
#   /usr/local/lib/python3.*          pip installs into Debian's Python
# What stays: Debian's bare Python (its standard library), and the locked
# environments under /opt/synth/python that make deps and make test build.
#
# With no command, the set-up runs first, outside the namespace (the Debian
# packages, locked environments and npm packages make test would install),
# so that nothing is installed into a hidden directory and lost (they are
# read-only, so such an install fails loudly). A command of your own gets no
# set-up: run make deps first. Needs root and unshare (util-linux). Nothing
# outside the command's own view changes.
#
# Usage: scripts/test-fresh.sh [COMMAND...]
#   scripts/test-fresh.sh                                # CI=true make test
#   scripts/test-fresh.sh go test -count=1 ./sources/pybench/
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
  echo "test-fresh: needs root for a mount namespace (run it under sudo)" >&2
  exit 2
fi
command -v unshare >/dev/null || { echo "test-fresh: needs unshare: apt-get install util-linux" >&2; exit 2; }

if [ $# -eq 0 ]; then
  # What make test installs before it runs (its deps line, and scripts/pytest.sh's environments).
  PYENVS="serve pytest harbor" scripts/deps.sh chromium slurm-wlm munge
  set -- env CI=true make test
fi

hide=()
for d in "$HOME/.pyenv" "$HOME/.local/lib" /usr/lib/python3/dist-packages /usr/local/lib/python3.*; do
  [ -d "$d" ] && hide+=("$d")
done
# PATH without the hidden pyenv's shims, so `python3` is Debian's.
path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v "^$HOME/.pyenv" | paste -sd: -)

echo "test-fresh: hidden: ${hide[*]:-nothing}" >&2
exec unshare --mount --propagation private -- env PATH="$path" HIDE="${hide[*]}" bash -c '
  set -e
  for d in $HIDE; do mount -t tmpfs -o ro,size=4k,mode=755 test-fresh "$d"; done
  exec "$@"' test-fresh "$@"
