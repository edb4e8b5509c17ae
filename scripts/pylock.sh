#!/usr/bin/env bash
# Compiles pyenv/NAME.in into pyenv/NAME.lock for every NAME (or those given):
# exact versions and sha256 hashes of every file, for CPython 3.11 on
# x86_64 manylinux, wheels only except the packages in pyenv/NAME.sdist.
# Uses uv's resolver (its version pinned below, installed into
# $SYNTH_PYENV_ROOT/../tools); installs go through pip (scripts/pyenv.sh).
# pyenv/NAME.in may constrain itself to another lock with a line
# "-c sandbox.lock", so that shared packages keep the sandbox's versions.
# pyenv/NAME.python-version, when present, names the Python version to
# resolve for instead of 3.11 (harbor declares Requires-Python >=3.12; its
# lock is installed on 3.11 with --ignore-requires-python, see pyenv.sh).
# Packages matching a name pattern in pyenv/NAME.omit (one a line, shell glob,
# e.g. nvidia-*) are left out of the lock, with a comment naming them;
# scripts/pyenv.sh then accepts their absence in pip check.
set -euo pipefail
cd "$(dirname "$0")/.."

root=${SYNTH_PYENV_ROOT:-/opt/synth/python}
tools=$(dirname "$root")/tools
uv=$tools/bin/uv
if [ ! -x "$uv" ]; then
  /usr/bin/python3.11 -m venv "$tools"
  "$tools/bin/pip" install -q --disable-pip-version-check uv==0.13.8
fi

# omit LOCK OMIT removes from LOCK the packages (a pin line and its indented
# hashes and comments) whose names match a pattern in OMIT.
omit() {
  local lock=$1 pats=() left=() line name skip="" pat tmp
  while read -r pat _; do
    [[ -z "$pat" || "$pat" == \#* ]] || pats+=("$pat")
  done < "$2"
  tmp=$(mktemp)
  while IFS= read -r line; do
    if [[ "$line" =~ ^[A-Za-z0-9] ]]; then
      name=${line%%==*}
      name=${name,,}
      skip=""
      for pat in "${pats[@]}"; do
        # shellcheck disable=SC2053
        if [[ "$name" == $pat ]]; then skip=1; left+=("$name"); break; fi
      done
    fi
    [ -n "$skip" ] || printf '%s\n' "$line"
  done < "$lock" > "$tmp"
  printf '# left out by %s (not installed): %s\n' "$2" "${left[*]}" >> "$tmp"
  mv "$tmp" "$lock"
}

names=("$@")
if ((${#names[@]} == 0)); then
  for f in pyenv/*.in; do names+=("$(basename "$f" .in)"); done
fi
for name in "${names[@]}"; do
  nobin=()
  if [ -f "pyenv/$name.sdist" ]; then
    while read -r pkg _; do
      [[ -z "$pkg" || "$pkg" == \#* ]] || nobin+=(--no-binary "$pkg")
    done < "pyenv/$name.sdist"
  fi
  pyver=3.11
  if [ -f "pyenv/$name.python-version" ]; then pyver=$(tr -d ' \n' < "pyenv/$name.python-version"); fi
  (cd pyenv && "$uv" pip compile "$name.in" --quiet --python-version "$pyver" \
    --python-platform x86_64-manylinux_2_28 --generate-hashes --only-binary :all: "${nobin[@]}" \
    --no-header --custom-compile-command "make lock" -o "$name.lock")
  if [ -f "pyenv/$name.omit" ]; then omit "pyenv/$name.lock" "pyenv/$name.omit"; fi
  echo "pylock: pyenv/$name.lock: $(grep -cE '^[A-Za-z0-9]' "pyenv/$name.lock") packages, hash $(sha256sum "pyenv/$name.lock" | cut -c1-12)"
done
