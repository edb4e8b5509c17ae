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
#   FUZZTIME=500x scripts/fuzz.sh   500 inputs per target (make test's way)
#
# A time budget can end in Go's own race (go.dev/issue/75804, unfixed in Go
# 1.26): the target fails with a bare "context deadline exceeded" at the
# deadline and writes no crasher. That ending is reported and not counted as
# a failure; a count budget (Nx) has no deadline and never meets it.
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
	log=/tmp/fuzz-$target.log
	before=$(ls "$dir/testdata/fuzz/$target" 2>/dev/null | sort || true)
	if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -parallel 1 "./$dir" >"$log" 2>&1; then
		after=$(ls "$dir/testdata/fuzz/$target" 2>/dev/null | sort || true)
		# The race's whole failure is this one line under --- FAIL.
		if [[ $before == "$after" ]] && [[ $(grep -A3 -- "--- FAIL: $target" "$log" | sed -n 2p) =~ ^[[:space:]]+context\ deadline\ exceeded$ ]] &&
			! grep -q 'Failing input written' "$log"; then
			echo "fuzz: $target ended on Go's fuzztime race (go.dev/issue/75804): no crasher written, not a failure"
			continue
		fi
		grep -vE '^fuzz: elapsed' "$log" | tail -30
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
