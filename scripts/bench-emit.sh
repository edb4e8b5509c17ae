#!/usr/bin/env bash
# Emit throughput and peak memory: 100,000 synthetic trajectories of about
# 8 KB each written as Parquet shards (docs/PERFORMANCE.md, "Emit").
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o bin/emitbench ./dataset/cmd/emitbench
bin/emitbench
