#!/usr/bin/env bash
# CPU of a switch read's GETBULK walks on the lab side (not a test): SNMP4J-Agent's processing
# against the lab's own GETBULK answer, in one JVM (dev.waldoconf.lab.snmp.BulkWalkBenchmark).
# Prints figures with the load average; run it under `flock /work/bench.lock` on a shared machine.
# Usage: lab/bench/run-bulk.sh [VLANS...]   (default: 4 32)
set -euo pipefail
# shellcheck source=../../bench/lib/module-bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../bench/lib/module-bench.sh"
module_bench lab dev.waldoconf.lab.snmp.BulkWalkBenchmark "$@"
