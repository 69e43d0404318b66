#!/usr/bin/env bash
# A RUBiS-style bid workload (Claret's auction benchmark): abstract locks off against on, side by
# side from one run. Writes bench/rubis/RESULTS.md. Not a test: figures depend on the machine.
# Options go to the JVM: RUBIS_OPTS="-Drubis.seconds=10 -Drubis.clients=16 -Drubis.thinkMicros=1000" bench/rubis/run.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/bin/lib/jdk.sh"
select_jdk
cd "$ROOT"
./mvnw -B -ntp -q -pl waldo-runtime -am test-compile
# shellcheck disable=SC2086 # RUBIS_OPTS is a list of JVM options
"$JAVA_HOME/bin/java" ${RUBIS_OPTS:-} -cp waldo-runtime/target/classes:waldo-runtime/target/test-classes \
  dev.waldo.runtime.bench.RubisBenchmark bench/rubis/RESULTS.md
