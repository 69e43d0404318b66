#!/usr/bin/env bash
# OCC against wound-wait with primaries (issue 12, Tribune): throughput, abort rate and the
# longest wait of a long transaction among short ones, under low and high contention.
# Writes bench/occ/RESULTS.md. Not a test: figures depend on the machine and its load.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/runtime-bench.sh"
# shellcheck disable=SC2086 # BENCH_OPTS is a list of JVM options
runtime_bench ${BENCH_OPTS:-} dev.waldo.runtime.bench.OccBenchmark bench/occ/RESULTS.md
