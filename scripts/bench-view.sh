#!/usr/bin/env bash
# Measures synth view on a generated run of 100,000 trajectories: writing
# the site (time, peak memory, size) and opening its index in headless
# Chromium (when the first rows are drawn). VIEW_N sets the trajectories.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null; then browser="$b"; break; fi
done
[ -n "$browser" ] || echo "bench-view: chromium not found: the index load is not measured (install Debian's chromium)" >&2
go run ./view/cmd/viewbench -n "${VIEW_N:-100000}" -chromium "$browser" -runs "${VIEW_RUNS:-5}"
