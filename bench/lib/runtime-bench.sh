# Sourced by the runtime's benchmark scripts (bench/claret, occ, rubis, snapshot, walter): compiles
# waldo-runtime's test classes, where the benchmarks live, and runs one with a JDK 21+.
#   runtime_bench [JVM-OPTIONS...] MAIN-CLASS [ARGUMENTS...]
# It runs from the project's root, so relative paths in the arguments start there.
# shellcheck source=module-bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/module-bench.sh"

runtime_bench() {
  module_bench waldo-runtime "$@"
}
