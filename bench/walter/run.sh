#!/usr/bin/env bash
# Group commit benchmark: commits per second with durability off, on with one fsync per drain,
# and on with group commit, on the same two-host workload, from one run.
# Writes bench/walter/RESULTS.md. Not a test: figures depend on the machine and its disk.
#   bench/walter/run.sh                       # 5 s per configuration
#   SECONDS_EACH=10 bench/walter/run.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/bin/lib/jdk.sh"
select_jdk
cd "$ROOT"
./mvnw -B -ntp -q -pl waldo-runtime -am test-compile
mkdir -p waldo-runtime/target/bench-logs   # logs on the project's disk, not a tmpfs where fsync is free
"$JAVA_HOME/bin/java" -Dgroupcommit.seconds="${SECONDS_EACH:-5}" \
  -cp waldo-runtime/target/classes:waldo-runtime/target/test-classes \
  dev.waldo.runtime.bench.GroupCommitBenchmark bench/walter/RESULTS.md waldo-runtime/target/bench-logs
