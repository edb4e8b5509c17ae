#!/usr/bin/env bash
# Runs the Python-side tests (pytests/): builds the pytest environment from
# pyenv/pytest.lock (scripts/pyenv.sh pytest: cached by the lock's hash, so
# only the first run downloads), builds bin/synth, then runs pytest in that
# environment. Arguments go to pytest (e.g. scripts/pytest.sh -k load).
# Exits with pytest's status; pytest's closing line is the last it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH

scripts/pyenv.sh pytest
go build -o bin/synth ./cmd/synth
python=$(scripts/pyenv.sh --python pytest)
# Nothing is downloaded: models and tokenizers are made in the tests.
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1
export HF_HOME=${HF_HOME:-$(mktemp -d)} TOKENIZERS_PARALLELISM=false
export SYNTH_BIN=$PWD/bin/synth
exec "$python" -m pytest -p no:cacheprovider pytests "$@"
