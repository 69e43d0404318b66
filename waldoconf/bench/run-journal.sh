#!/usr/bin/env bash
# CPU of one device-journal write (not a test): appending a frame to a SnapshotLog against replacing
# the file (temporary, fsync, rename, directory fsync), one journal per switch as a site agent keeps
# them, in alternating rounds (dev.waldoconf.service.JournalWriteBenchmark). The journals go to a
# temporary directory under $TMPDIR (default /tmp): run it on the disk the journals would live on.
# Usage: waldoconf/bench/run-journal.sh [SWITCHES [ROUNDS [BYTES]]]   (default: 1000 5 1500)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/bin/lib/jdk.sh"
select_jdk
cd "$ROOT"
./mvnw -B -ntp -q -pl waldoconf -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
"$JAVA_HOME/bin/java" -cp "waldoconf/target/test-classes:waldoconf/target/classes:$(cat waldoconf/target/bench.classpath)" \
  dev.waldoconf.service.JournalWriteBenchmark "$@"
