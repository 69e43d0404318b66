#!/usr/bin/env bash
# Two concurrent WaldoConf applies on disjoint VLANs of the same lab switches: with whole-table
# locks (every apply runs alone on a switch, as before applies were keyed) and keyed (each apply
# locks what its plan depends on), from one run. Writes bench/disjoint-applies/RESULTS.md.
# Not a test: figures depend on the machine and its load. Measure under the bench lock:
#   flock /work/bench.lock bench/disjoint-applies/run.sh
#   BENCH_OPTS="-Dbench.rounds=4 -Dbench.profiles=fast" bench/disjoint-applies/run.sh   # quick look
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source bin/lib/jdk.sh
select_jdk
./mvnw -B -ntp -q -pl waldoconf -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
classpath="waldoconf/target/test-classes:waldoconf/target/classes:$(cat waldoconf/target/bench.classpath)"
results="bench/disjoint-applies/RESULTS.md"
body="$(mktemp)"
trap 'rm -f "$body"' EXIT
load_before="$(cut -d' ' -f1 /proc/loadavg)"
# shellcheck disable=SC2086 # BENCH_OPTS is a list of JVM options
"$JAVA_HOME/bin/java" -Xmx1g --enable-native-access=ALL-UNNAMED ${BENCH_OPTS:-} -cp "$classpath" dev.waldoconf.service.DisjointAppliesBench "$body"
load_after="$(cut -d' ' -f1 /proc/loadavg)"
{
  echo "# Two concurrent WaldoConf applies on disjoint VLANs: serialized before, concurrent after"
  echo
  echo "Written by \`bench/disjoint-applies/run.sh\` on $(date -u +%Y-%m-%dT%H:%MZ) at commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown):"
  echo "$(nproc) cores, $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); load average (1 min) $load_before at the start, $load_after at the end."
  echo
  cat "$body"
} > "$results"
echo "wrote $results"
