# synth — see README.md. The two commands a new user needs:
#   make demo   installs what is missing, builds bin/synth, runs synth build on the built-in corpus
#   make test   installs what is missing, runs every test
export PATH := /usr/local/go/bin:$(PATH)
GO ?= go
OUT ?= out

.PHONY: all deps build demo test bench vet fmt clean

all: build

deps:
	@scripts/deps.sh

build:
	$(GO) build -o bin/synth ./cmd/synth

demo: deps build
	bin/synth build -o $(OUT)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

# pygame: the sandbox test that an interactive program hits the time limit.
# chromium: the tests that open synth view's pages in a headless browser.
# slurm-wlm, munge: cmd/synth's TestSlurm starts a one-node cluster with
# scripts/slurm-local.sh; it needs root, so they are installed only as root
# (without, the test skips and says why).
test: vet
	@scripts/deps.sh python3-pygame chromium $$([ "$$(id -u)" -eq 0 ] && echo slurm-wlm munge)
	$(GO) test -count=1 -timeout 20m ./...

# Jupyter: the kernel the sandbox is measured against; chromium: synth view's index load.
bench: build
	@scripts/deps.sh python3-ipykernel python3-jupyter-client chromium
	scripts/bench.sh

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin $(OUT)
