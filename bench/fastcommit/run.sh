#!/usr/bin/env bash
# Fast commit (Walter's, at one remote host) against two-phase commit: the caller's latency of a
# transaction whose data all live on one other host, durability off and on, the ways taking turns.
# Writes bench/fastcommit/RESULTS.md. Not a test: figures depend on the machine and its disk.
#   bench/fastcommit/run.sh
#   ROUNDS=3 bench/fastcommit/run.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/runtime-bench.sh"
# Logs on the project's disk, not a tmpfs where fsync is free.
mkdir -p "$BENCH_ROOT/waldo-runtime/target/bench-logs"
load_before="$(cut -d' ' -f1 /proc/loadavg)"
runtime_bench -Dfastcommit.rounds="${ROUNDS:-5}" dev.waldo.runtime.bench.FastCommitBenchmark \
  bench/fastcommit/RESULTS.md waldo-runtime/target/bench-logs
printf '\n1-minute load average: %s before, %s after.\n' "$load_before" "$(cut -d' ' -f1 /proc/loadavg)" \
  >> "$BENCH_ROOT/bench/fastcommit/RESULTS.md"
