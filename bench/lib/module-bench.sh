# Sourced by benchmark scripts whose benchmark lives in a module's test classes: compiles the module
# (with the modules it needs) and runs one main class on its test class path with a JDK 21+.
#   module_bench MODULE [JVM-OPTIONS...] MAIN-CLASS [ARGUMENTS...]
# It runs from the project's root, so relative paths in the arguments start there.
BENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

module_bench() {
  local module="$1"
  shift
  # shellcheck source=../../bin/lib/jdk.sh
  source "$BENCH_ROOT/bin/lib/jdk.sh"
  select_jdk
  cd "$BENCH_ROOT"
  ./mvnw -B -ntp -q -pl "$module" -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
  "$JAVA_HOME/bin/java" -cp "$module/target/test-classes:$module/target/classes:$(cat "$module/target/bench.classpath")" "$@"
}
