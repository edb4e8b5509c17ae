#!/usr/bin/env bash
# Measures a synth dataset's prefix preservation under TRL's bundled chat
# templates (pytests/prefix.py) in the rows environment (pyenv/rows.lock:
# transformers, tokenizers and trl without torch; built on first use),
# offline, and writes prefix.json and a "Chat templates" section into its
# card. make demo runs it on the demo's dataset.
# Usage: scripts/prefix.sh OUT/dataset
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -eq 1 ] || { echo "usage: scripts/prefix.sh DATASET_DIR" >&2; exit 2; }
[ -d "$1" ] || { echo "scripts/prefix.sh: $1 is not a folder: give a synth dataset folder (OUT/dataset)" >&2; exit 2; }
dataset=$(cd "$1" && pwd)
"$repo/scripts/pyenv.sh" rows >/dev/null
python=$("$repo/scripts/pyenv.sh" --python rows)
# No torch here on purpose: transformers' notice that it is missing is silenced.
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1 TOKENIZERS_PARALLELISM=false TRANSFORMERS_VERBOSITY=error
export HF_HOME=${HF_HOME:-$(mktemp -d)}
cd "$repo/pytests" && exec "$python" prefix.py "$dataset"
