#!/usr/bin/env bash
# CPU of a switch read's GETBULK walks on the lab side (not a test): SNMP4J-Agent's processing
# against the lab's own GETBULK answer, in one JVM (dev.waldoconf.lab.snmp.BulkWalkBenchmark).
# Prints figures with the load average; run it under `flock /work/bench.lock` on a shared machine.
# Usage: lab/bench/run-bulk.sh [VLANS...]   (default: 4 32)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/bin/lib/jdk.sh"
select_jdk
cd "$ROOT"
./mvnw -B -ntp -q -pl lab -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
"$JAVA_HOME/bin/java" -cp "lab/target/test-classes:lab/target/classes:$(cat lab/target/bench.classpath)" \
  dev.waldoconf.lab.snmp.BulkWalkBenchmark "$@"
