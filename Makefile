# synth — see README.md. The two commands a new user needs:
#   make demo   installs what is missing, builds bin/synth, runs synth build on the built-in corpus
#   make test   installs what is missing, runs every test
export PATH := /usr/local/go/bin:$(PATH)
GO ?= go
OUT ?= out

.PHONY: all deps build demo test bench vet fmt clean lock

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

# chromium: the tests that open synth view's pages in a headless browser.
# slurm-wlm, munge: cmd/synth's TestSlurm starts a one-node cluster with
# scripts/slurm-local.sh. The serve environment (pyenv/serve.lock, openenv-core):
# cmd/synth's TestServeOpenEnvClient runs scripts/serve-client-test.sh with it.
test: vet
	@PYENVS=serve scripts/deps.sh chromium slurm-wlm munge
	$(GO) test -count=1 -timeout 20m ./...

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
