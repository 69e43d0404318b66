#!/usr/bin/env bash
# A RUBiS-style bid workload (Claret's auction benchmark): abstract locks off against on, side by
# side from one run. Writes bench/rubis/RESULTS.md. Not a test: figures depend on the machine.
# Options go to the JVM: RUBIS_OPTS="-Drubis.seconds=10 -Drubis.clients=16 -Drubis.thinkMicros=1000" bench/rubis/run.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/runtime-bench.sh"
# shellcheck disable=SC2086 # RUBIS_OPTS is a list of JVM options
runtime_bench ${RUBIS_OPTS:-} dev.waldo.runtime.bench.RubisBenchmark bench/rubis/RESULTS.md
