#!/usr/bin/env bash
# JMH microbenchmarks of the runtime core (dev.waldo.net.bench.CoreBenchmark: one transaction through
# two HostCores, a tick) and of the wire codec (dev.waldo.net.CodecBenchmark: a transaction's six
# frames through two real pipelines), with JMH's gc profiler for allocation per operation.
# Arguments go to JMH, e.g. bench/jmh.sh CoreBenchmark -f 1 -wi 2 -i 3
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source bin/lib/jdk.sh
select_jdk
./mvnw -B -ntp -q -Pjmh -pl waldo-net -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
classpath="waldo-net/target/test-classes:waldo-net/target/classes:$(cat waldo-net/target/bench.classpath)"
"$JAVA_HOME/bin/java" -cp "$classpath" org.openjdk.jmh.Main -prof gc "${@:-Benchmark}"
