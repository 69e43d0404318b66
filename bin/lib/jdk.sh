# Sourced by the launchers in bin/. Finds a JDK of version 21 or newer and
# exports JAVA_HOME for it, because the machine's default `java` may be older.

# Prints the feature version (17, 21, 25, ...) of the JDK at $1, or nothing.
jdk_feature_version() {
  local home="$1"
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 0
  "$home/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n1
}

# Sets JAVA_HOME to the newest JDK >= 21 among JAVA_HOME, the `java` on PATH
# and /usr/lib/jvm/*; fails with a message saying what to install otherwise.
select_jdk() {
  local candidates=() best="" best_version=0 home version
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  for home in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do
    [ -d "$home" ] && candidates+=("$home")
  done
  for home in "${candidates[@]}"; do
    version="$(jdk_feature_version "$home")"
    if [ -n "$version" ] && [ "$version" -ge 21 ] && [ "$version" -gt "$best_version" ]; then
      best="$home"; best_version="$version"
    fi
  done
  if [ -z "$best" ]; then
    echo "error: no JDK of version 21 or newer found (looked at JAVA_HOME, PATH and /usr/lib/jvm)." >&2
    echo "       Install one, e.g. 'apt-get install openjdk-21-jdk', or set JAVA_HOME." >&2
    return 1
  fi
  export JAVA_HOME="$best"
  export PATH="$JAVA_HOME/bin:$PATH"
}
