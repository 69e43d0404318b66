#!/usr/bin/env bash
# Claret's contended microbenchmark: abstract locks off against on, side by side from one run.
# Writes bench/claret/RESULTS.md. Not a test: figures depend on the machine.
# Options go to the JVM: CLARET_OPTS="-Dclaret.seconds=10 -Dclaret.thinkMicros=1000,500,0" bench/claret/run.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/bin/lib/jdk.sh"
select_jdk
cd "$ROOT"
./mvnw -B -ntp -q -pl waldo-runtime -am test-compile
# shellcheck disable=SC2086 # CLARET_OPTS is a list of JVM options
"$JAVA_HOME/bin/java" ${CLARET_OPTS:-} -cp waldo-runtime/target/classes:waldo-runtime/target/test-classes \
  dev.waldo.runtime.bench.ClaretBenchmark bench/claret/RESULTS.md
