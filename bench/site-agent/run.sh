#!/usr/bin/env bash
# Site agent memory per switch: starts N lab switches (fast profile), then one
# `waldoconf serve --site lab` in a JVM of its own with -Xmx1g, and reports that process's heap
# after a full GC, resident memory and threads, idle and after one `waldoconf apply` of
# configs/vlan.yaml to every switch through it (timed). Writes bench/site-agent/RESULTS.md.
# Not part of bin/test. Needs jcmd (from the JDK).
#
#   bench/site-agent/run.sh                     # 100, 500 and 1000 switches
#   SIZES=100 bench/site-agent/run.sh           # a quick look
#
# Environment: SIZES (comma-separated, default 100,500,1000), AGENT_HEAP (default 1g),
# TIMEOUT_S (per step, default 900).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source bin/lib/jdk.sh
select_jdk
./mvnw -B -ntp -q -pl cli -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
classpath="$root/cli/target/test-classes:$root/cli/target/classes:$(cat cli/target/bench.classpath)"
results="bench/site-agent/RESULTS.md"
body="$(mktemp)"
trap 'rm -f "$body"' EXIT
# The lab's switches run in this JVM; the agent gets its own, with the heap under test.
"$JAVA_HOME/bin/java" -Xmx3g --enable-native-access=ALL-UNNAMED -cp "$classpath" \
  -Dbench.sizes="${SIZES:-100,500,1000}" -Dbench.agentHeap="${AGENT_HEAP:-1g}" \
  -Dbench.timeoutS="${TIMEOUT_S:-900}" -Dbench.plan="$root/configs/vlan.yaml" \
  dev.waldoconf.cli.SiteAgentMemoryBench "$body"
{
  echo "# Site agent: memory and threads per switch"
  echo
  echo "Written by \`bench/site-agent/run.sh\` on $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown):"
  echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)."
  echo "One \`waldoconf serve --site lab --insecure\` with -Xmx${AGENT_HEAP:-1g} serving N lab switches (fast profile,"
  echo "in another JVM); heap is what \`jcmd GC.heap_info\` reports used right after \`jcmd GC.run\`."
  echo
  cat "$body"
} > "$results"
echo "wrote $results"
