#!/bin/bash
# Fuzzes every parser of untrusted bytes for FUZZTIME each (default 10s):
# teacher and writer replies, configs, imported benchmarks and trajectories,
# archives, API responses, and the tables, documents, images and audio synth
# previews. `go test` alone runs only each target's seeds and the crashers
# kept under testdata/fuzz; this script searches for new ones. A crasher go
# finds is written to PKG/testdata/fuzz/TARGET/ and fails the run: fix the
# code, and commit the file so the crash stays a test.
#
#   scripts/fuzz.sh                 every target, FUZZTIME each
#   FUZZTIME=2m scripts/fuzz.sh FuzzPreview
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH
fuzztime=${FUZZTIME:-10s}
only=${1:-}
failed=()
n=0
# Every Fuzz function in a _test.go file, as "package-dir target".
while read -r dir target; do
	[[ -n $only && $target != "$only" ]] && continue
	n=$((n + 1))
	echo "fuzz: $target (./$dir) for $fuzztime"
	# -parallel 1: one worker, so a shared two-core machine stays usable.
	if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -parallel 1 "./$dir" >"/tmp/fuzz-$target.log" 2>&1; then
		grep -vE '^fuzz: elapsed' "/tmp/fuzz-$target.log" | tail -30
		failed+=("$target")
	fi
done < <(git ls-files '*_test.go' | xargs grep -H '^func Fuzz' | sed -E 's|^(.*)/[^/]*_test.go:func (Fuzz[A-Za-z0-9]*)\(.*|\1 \2|' | sort)
if ((n == 0)); then
	echo "fuzz: no target matches ${only:-anything}" >&2
	exit 2
fi
if ((${#failed[@]})); then
	echo "fuzz: ${#failed[@]} of $n targets failed: ${failed[*]} (crashers are under each package's testdata/fuzz/)"
	exit 1
fi
echo "fuzz: $n targets, no failure in $fuzztime each"
