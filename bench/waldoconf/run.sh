#!/usr/bin/env bash
# WaldoConf apply benchmark: times `waldoconf apply` (one transaction through one TLS service per
# switch and the SNMP driver) on 8, 48 and 128 embedded lab switches, beside a baseline that sets
# the same rows with net-snmp `snmpset`, one switch after another; then injects a failure and
# reports what each leaves behind. Writes bench/waldoconf/RESULTS.md. Needs `snmpset` (Debian
# package `snmp`).
#
# Quick look: BENCH_OPTS="-Dbench.sizes=8 -Dbench.runs=1" bench/waldoconf/run.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v snmpset >/dev/null || { echo "snmpset not found: apt-get install snmp" >&2; exit 1; }
source bin/lib/jdk.sh
select_jdk
./mvnw -B -ntp -q -pl waldoconf -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
classpath="waldoconf/target/test-classes:waldoconf/target/classes:$(cat waldoconf/target/bench.classpath)"
results="bench/waldoconf/RESULTS.md"
body="$(mktemp)"
trap 'rm -f "$body"' EXIT
# shellcheck disable=SC2086 # BENCH_OPTS is a list of JVM options
java -Xmx2g --enable-native-access=ALL-UNNAMED ${BENCH_OPTS:-} -cp "$classpath" \
  dev.waldoconf.product.ApplyBench "$body"
{
  echo "# WaldoConf apply vs. snmpset one switch after another"
  echo
  echo "Written by \`bench/waldoconf/run.sh\` on $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown):"
  echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(java -version 2>&1 | head -1)."
  echo
  cat "$body"
} > "$results"
echo "wrote $results"
