#!/usr/bin/env bash
# Runs the Waldo network benchmarks (waldo-net, dev.waldo.net.bench.Bench)
# between two JVM processes on loopback, then the fairness benchmark
# (primaries against plain wound-wait), and writes both into bench/RESULTS.md, followed by the
# last recorded JMH microbenchmarks (bench/jmh.sh, bench/jmh/RESULTS.md), issue 12's benchmarks
# (fast commit, Claret, RUBiS, OCC, group commit, snapshot reads, disjoint applies: bench/NAME/RESULTS.md)
# and the end-to-end apply benchmark (bench/apply-vs-snmpset/RESULTS.md).
#
# Quick look: BENCH_OPTS="-Dbench.latencyTx=3000 -Dbench.runs=3 -Dbench.throughputTx=5000" bench/run.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source bin/lib/jdk.sh
select_jdk
./mvnw -B -ntp -q -pl waldo-net -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
classpath="waldo-net/target/test-classes:waldo-net/target/classes:$(cat waldo-net/target/bench.classpath)"
# shellcheck disable=SC2086 # BENCH_OPTS is a list of JVM options
"$JAVA_HOME/bin/java" -Xmx512m ${BENCH_OPTS:-} -cp "$classpath" dev.waldo.net.bench.Bench bench/RESULTS.md
bench/fairness/run.sh >/dev/null
{ echo; sed 's/^# /## /' bench/fairness/RESULTS.md; } >> bench/RESULTS.md
# The JMH microbenchmarks run apart (bench/jmh.sh); their last recorded figures are carried over.
if [ -f bench/jmh/RESULTS.md ]; then
  { echo; sed 's/^# /## /' bench/jmh/RESULTS.md; } >> bench/RESULTS.md
fi
# Issue 12's benchmarks each run apart (bench/NAME/run.sh): fast commit against 2PC, Claret's
# abstract locks, RUBiS bids, OCC against locks, group commit, snapshot reads and two applies on
# disjoint VLANs. Their last recorded figures are carried over, side by side.
for name in fastcommit claret rubis occ walter snapshot disjoint-applies; do
  if [ -f "bench/$name/RESULTS.md" ]; then
    { echo; sed 's/^# /## /' "bench/$name/RESULTS.md"; } >> bench/RESULTS.md
  fi
done
# The end-to-end apply benchmark needs its own labs and takes minutes; its last recorded figures
# (bench/apply-vs-snmpset/run.sh > bench/apply-vs-snmpset/RESULTS.md) are carried over.
if [ -f bench/apply-vs-snmpset/RESULTS.md ]; then
  { echo; sed 's/^# /## /' bench/apply-vs-snmpset/RESULTS.md; } >> bench/RESULTS.md
fi
echo "wrote bench/RESULTS.md"
