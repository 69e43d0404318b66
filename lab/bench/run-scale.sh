#!/usr/bin/env bash
# Scale benchmark of the lab (not a test): starts 64 and 256 embedded switches in one JVM and
# writes startup time, memory and VLAN-table walk times to lab/bench/RESULTS.md.
# Usage: lab/bench/run-scale.sh [COUNT...]   (default: 64 256)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/bin/lib/jdk.sh"
select_jdk
cd "$ROOT"
./mvnw -B -ntp -q -pl lab package -DskipTests
JAR="$(ls lab/target/lab-*-switch.jar | head -n1)"
java -Xmx1g -cp "$JAR" dev.waldoconf.lab.bench.ScaleBenchmark --out lab/bench/RESULTS.md "$@"
