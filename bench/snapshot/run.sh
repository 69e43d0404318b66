#!/usr/bin/env bash
# Snapshot reads benchmark: read-only transactions among long writers, with snapshot reads off
# (locking reads) and on, on hot keys and on many keys, from one run.
# Writes bench/snapshot/RESULTS.md. Not a test: figures depend on the machine and its load.
#   bench/snapshot/run.sh                     # 5 s per configuration
#   SECONDS_EACH=10 bench/snapshot/run.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/runtime-bench.sh"
runtime_bench -Dsnapshot.seconds="${SECONDS_EACH:-5}" dev.waldo.runtime.bench.SnapshotReadBenchmark \
  bench/snapshot/RESULTS.md
