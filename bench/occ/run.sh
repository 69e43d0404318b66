#!/usr/bin/env bash
# OCC against wound-wait with primaries (issue 12, Tribune): throughput, abort rate and the
# longest wait of a long transaction among short ones, under low and high contention.
# Writes bench/occ/RESULTS.md. Not a test: figures depend on the machine and its load.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/bin/lib/jdk.sh"
select_jdk
cd "$ROOT"
./mvnw -B -ntp -q -pl waldo-runtime -am test-compile
"$JAVA_HOME/bin/java" ${BENCH_OPTS:-} -cp waldo-runtime/target/classes:waldo-runtime/target/test-classes \
  dev.waldo.runtime.bench.OccBenchmark bench/occ/RESULTS.md
