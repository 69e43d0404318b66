# Sourced by the runtime's benchmark scripts (bench/claret, occ, rubis, snapshot, walter): compiles
# waldo-runtime's test classes, where the benchmarks live, and runs one with a JDK 21+.
#   runtime_bench [JVM-OPTIONS...] MAIN-CLASS [ARGUMENTS...]
# It runs from the project's root, so relative paths in the arguments start there.
BENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

runtime_bench() {
  # shellcheck source=../../bin/lib/jdk.sh
  source "$BENCH_ROOT/bin/lib/jdk.sh"
  select_jdk
  cd "$BENCH_ROOT"
  ./mvnw -B -ntp -q -pl waldo-runtime -am test-compile
  "$JAVA_HOME/bin/java" -cp waldo-runtime/target/classes:waldo-runtime/target/test-classes "$@"
}
