#!/usr/bin/env bash
# Claret's contended microbenchmark: abstract locks off against on, side by side from one run.
# Writes bench/claret/RESULTS.md. Not a test: figures depend on the machine.
# Options go to the JVM: CLARET_OPTS="-Dclaret.seconds=10 -Dclaret.thinkMicros=1000,500,0" bench/claret/run.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/runtime-bench.sh"
# shellcheck disable=SC2086 # CLARET_OPTS is a list of JVM options
runtime_bench ${CLARET_OPTS:-} dev.waldo.runtime.bench.ClaretBenchmark bench/claret/RESULTS.md
