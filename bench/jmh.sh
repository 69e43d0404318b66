#!/usr/bin/env bash
# JMH microbenchmarks of the runtime core (dev.waldo.net.bench.CoreBenchmark: one transaction through
# two HostCores, a tick) and of the wire codec (dev.waldo.net.CodecBenchmark: a transaction's four
# frames through two real pipelines), with JMH's gc profiler for allocation per operation.
# Writes bench/jmh/RESULTS.md, which bench/run.sh appends to bench/RESULTS.md.
# Arguments go to JMH (default: every benchmark), e.g. bench/jmh.sh CoreBenchmark -wi 2 -i 3
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source bin/lib/jdk.sh
select_jdk
./mvnw -B -ntp -q -Pjmh -pl waldo-net -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
classpath="waldo-net/target/test-classes:waldo-net/target/classes:$(cat waldo-net/target/bench.classpath)"
mkdir -p bench/jmh
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
"$JAVA_HOME/bin/java" -cp "$classpath" org.openjdk.jmh.Main -prof gc -rf text -rff bench/jmh/results.txt \
  "${@:-Benchmark}"
{
  echo "# Microbenchmarks (JMH)"
  echo
  echo "Run by \`bench/jmh.sh ${*:-}\` on $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $("$JAVA_HOME/bin/java" -version 2>&1 | head -1),"
  echo "load average $load_before before and $(cut -d' ' -f1-3 /proc/loadavg) after (the machine is shared)."
  echo "CoreBenchmark: the runtime core alone (two HostCores in one thread, no host layer, storage or network);"
  echo "CodecBenchmark: one transaction's four frames through two real pipelines (no sockets, no TLS)."
  echo "ns/op is per transaction (or per tick); gc.alloc.rate.norm is bytes allocated per transaction."
  echo
  echo '```'
  grep -v -e ':gc.count' -e ':gc.time' -e ':gc.alloc.rate ' bench/jmh/results.txt
  echo '```'
} > bench/jmh/RESULTS.md
rm bench/jmh/results.txt
echo "wrote bench/jmh/RESULTS.md"
