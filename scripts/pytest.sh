#!/usr/bin/env bash
# Runs the Python-side tests (pytests/): builds the pytest environment from
# pyenv/pytest.lock and the harbor environment from pyenv/harbor.lock
# (scripts/pyenv.sh: cached by each lock's hash, so only the first run
# downloads), builds bin/synth, then runs pytest in the pytest environment;
# pytests/test_harbor.py runs harbor's loaders in the harbor environment
# ($HARBOR_PYTHON) and the exported tasks' scripts with the sandbox's
# interpreter ($SANDBOX_PYTHON). Arguments go to pytest (e.g. scripts/pytest.sh -k load).
# Exits with pytest's status; pytest's closing line is the last it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH

scripts/pyenv.sh pytest
scripts/pyenv.sh harbor
scripts/pyenv.sh sandbox
go build -o bin/synth ./cmd/synth
python=$(scripts/pyenv.sh --python pytest)
# Nothing is downloaded: models and tokenizers are made in the tests.
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1
export HF_HOME=${HF_HOME:-$(mktemp -d)} TOKENIZERS_PARALLELISM=false
export SYNTH_BIN=$PWD/bin/synth
HARBOR_PYTHON=$(scripts/pyenv.sh --python harbor)
SANDBOX_PYTHON=$(scripts/pyenv.sh --python sandbox)
export HARBOR_PYTHON SANDBOX_PYTHON
exec "$python" -m pytest -p no:cacheprovider pytests "$@"
