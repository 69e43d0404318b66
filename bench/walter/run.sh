#!/usr/bin/env bash
# Group commit benchmark: commits per second with durability off, on with one fsync per drain,
# and on with group commit, on the same two-host workload, from one run.
# Writes bench/walter/RESULTS.md. Not a test: figures depend on the machine and its disk.
#   bench/walter/run.sh                       # 5 s per configuration
#   SECONDS_EACH=10 bench/walter/run.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/runtime-bench.sh"
# Logs on the project's disk, not a tmpfs where fsync is free.
mkdir -p "$BENCH_ROOT/waldo-runtime/target/bench-logs"
runtime_bench -Dgroupcommit.seconds="${SECONDS_EACH:-5}" dev.waldo.runtime.bench.GroupCommitBenchmark \
  bench/walter/RESULTS.md waldo-runtime/target/bench-logs
