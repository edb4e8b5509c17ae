# synth — see README.md. The two commands a new user needs:
#   make demo   installs what is missing, builds bin/synth, runs synth build on the built-in corpus
#               and measures its rows' prefix preservation (scripts/prefix.sh)
#   make test   installs what is missing, runs every test, Go and Python, and lists what skipped
export PATH := /usr/local/go/bin:$(PATH)
GO ?= go
OUT ?= out

# make docs-check: the figures README.md and docs/ quote from make demo are
# the demo's (OUT's run.json); go run ./internal/manual/docsfigures says which differ.
.PHONY: all deps build demo docs-check test test-fresh pytest fuzz bench vet fmt clean lock mutate

all: build

deps:
	@scripts/deps.sh

build:
	$(GO) build -o bin/synth ./cmd/synth

# The card's prefix-preservation section is measured after the build, in
# the rows environment (scripts/prefix.sh; synth, in Go, cannot render
# transformers' chat templates).
demo: deps build
	bin/synth build -o $(OUT)
	scripts/prefix.sh $(OUT)/dataset

docs-check:
	$(GO) run ./internal/manual/docsfigures -run $(OUT)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

# chromium: the tests that open synth view's pages in a headless browser.
# slurm-wlm, munge: cmd/synth's TestSlurm starts a one-node cluster with
# scripts/slurm-local.sh (as root, or under sudo). deps.sh also installs npm
# and DuckDB for the Parquet tests, bubblewrap, ffmpeg and the locked Python.
# The serve environment (pyenv/serve.lock, openenv-core): cmd/synth's
# TestServeOpenEnvClient runs scripts/serve-client-test.sh with it.
# internal/testreport runs go test -json: go test's ok / FAIL lines, failing
# output, every skipped test with its reason, the slowest tests, and a last
# line "N passed, N failed, N skipped". Under CI=true a skip that
# .ci/skips.txt does not list is a failure. TEST_EVENTS keeps the raw events
# (per-test timings); TEST_FLAGS adds go test flags, e.g. TEST_FLAGS=-short.
# TEST_TIMEOUT bounds each package's test binary: generators/template's
# conformance proof alone took 17 minutes of wall time on two cores shared
# with other work (docs/PERFORMANCE.md, "The test suite").
TEST_EVENTS ?= bin/test-events.json
TEST_FLAGS ?=
TEST_TIMEOUT ?= 30m
# Then the Python-side tests (make pytest), whose closing line ends the output.
test: vet
	@PYENVS=serve scripts/deps.sh chromium slurm-wlm munge
	$(GO) build -o bin/testreport ./internal/testreport
	bin/testreport -skips .ci/skips.txt -events $(TEST_EVENTS) -- -count=1 -timeout $(TEST_TIMEOUT) $(TEST_FLAGS) ./...
	FUZZTIME=$(TEST_FUZZTIME) scripts/fuzz.sh
	scripts/pytest.sh

# make test as on a fresh machine (as root): the set-up make test does, then
# CI=true make test in a throwaway mount namespace where every Python package
# the set-up did not install is hidden (pyenv's Pythons, Debian's python3-*
# packages, pip installs into Debian's Python), so a test that leans on one
# fails here rather than on a new user's machine (scripts/test-fresh.sh; it
# also runs one command of your own, e.g. a single package's go test).
test-fresh:
	@scripts/test-fresh.sh

# Every fuzz target (func Fuzz... in a _test.go file) searches for new
# crashers for FUZZTIME; make test gives each TEST_FUZZTIME inputs (a count,
# so no deadline race: scripts/fuzz.sh). go test alone
# runs only their seeds and the crashers kept under testdata/fuzz.
FUZZTIME ?= 1m
TEST_FUZZTIME ?= 500x
fuzz:
	FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

# The Python-side tests (pytests/): datasets, pandas, polars, transformers' chat
# templates and TRL read and train on synth's output, in the environment of
# pyenv/pytest.lock; harbor's loaders read its Harbor export in the
# environment of pyenv/harbor.lock (each built once per lock by
# scripts/pyenv.sh).
pytest:
	scripts/pytest.sh

# The mutation run over the guards (internal/mutate/mutants.txt): each mutant
# is applied to a temporary copy of the tree, never to the checkout, and its
# tests run there; it prints each mutant killed or SURVIVED, the kill rate and
# the survivors, and fails below MUTATE_MIN percent. make test runs the
# mutants marked sample (internal/mutate's TestSampleMutantsDie).
# MUTATE_FLAGS: e.g. -only 'verify-' or -sample. MUTATE_FLAGS=-blind makes
# the mutants itself instead: every comparison negated and every early
# return deleted in the guard functions of internal/mutate/guards.txt, so
# that the rate measures the suite rather than a list written beside its
# tests (internal/mutate/equivalents.txt marks those no test can tell
# apart; docs/PERFORMANCE.md, "Mutants"); add -list to see them unrun.
MUTATE_MIN ?= 95
MUTATE_FLAGS ?=
mutate: deps
	$(GO) run ./internal/mutate -min $(MUTATE_MIN) $(MUTATE_FLAGS)

# The parity environment (the sandbox's lock plus ipykernel and jupyter_client):
# the Jupyter kernel the sandbox is measured against; chromium: synth view's index load.
bench: build
	@PYENVS=parity scripts/deps.sh chromium
	scripts/bench.sh

# Recompiles the locks from pyenv/*.in (newest versions that resolve; needs
# PyPI). Commit the .lock files it changes; make deps then builds them.
lock:
	scripts/pylock.sh

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin $(OUT)
