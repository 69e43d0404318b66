#!/usr/bin/env bash
# Fairness benchmark (paper §4.3): primaries against plain wound-wait.
# Writes bench/fairness/RESULTS.md. Not a test: figures depend on the machine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/bin/lib/jdk.sh"
select_jdk
cd "$ROOT"
./mvnw -B -ntp -q -pl waldo-runtime test-compile
"$JAVA_HOME/bin/java" -cp waldo-runtime/target/classes:waldo-runtime/target/test-classes \
  dev.waldo.runtime.bench.FairnessBenchmark bench/fairness/RESULTS.md
