# Sourced by the launchers in bin/. Builds a module's jar on first use, and
# again whenever a source file of the modules it is made from is newer.

# ensure_built JAR MODULE SOURCE_MODULE... : builds MODULE (with what it needs)
# unless JAR exists and is newer than every file under the source modules.
ensure_built() {
  local jar="$1" module="$2"; shift 2
  local stale=0 dir
  if [ ! -f "$jar" ]; then
    stale=1
  else
    for dir in "$@"; do
      if [ -n "$(find "$ROOT/$dir/src" "$ROOT/$dir/pom.xml" -newer "$jar" -print -quit 2>/dev/null)" ]; then
        stale=1
      fi
    done
  fi
  [ "$stale" = 1 ] || return 0
  echo "Building $module (first use or sources changed; takes a minute)..." >&2
  local log
  log="$(mktemp)"
  if ! (cd "$ROOT" && ./mvnw -B -ntp -q -pl "$module" -am -DskipTests package >"$log" 2>&1); then
    echo "error: building $module failed; Maven's output follows:" >&2
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}
