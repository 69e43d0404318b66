#!/usr/bin/env bash
# Compiles greeter.wld with waldoc, compiles the Java host against it and runs it.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$HERE/../.."
source "$ROOT/bin/lib/jdk.sh"
select_jdk
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
"$ROOT/bin/waldoc" "$HERE/greeter.wld" --jar "$OUT/greeter.jar"
CLASSPATH="$ROOT/waldo-compiler/target/waldoc.jar:$OUT/greeter.jar"
"$JAVA_HOME/bin/javac" -d "$OUT" -cp "$CLASSPATH" "$HERE/GreeterHost.java"
"$JAVA_HOME/bin/java" -cp "$CLASSPATH:$OUT" GreeterHost
