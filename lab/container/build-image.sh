#!/usr/bin/env bash
# Builds the lab switch image from local files only (FROM scratch + jlink runtime + jar).
# Usage: lab/container/build-image.sh [tag]   (default tag: waldoconf-lab-switch:latest)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TAG="${1:-waldoconf-lab-switch:latest}"
source "$ROOT/bin/lib/jdk.sh"
select_jdk
cd "$ROOT"
./mvnw -B -ntp -q -pl lab package -DskipTests
JAR="$(ls lab/target/lab-*-switch.jar | head -n1)"
CONTEXT="$(mktemp -d)"
trap 'rm -rf "$CONTEXT"' EXIT
java -cp "$JAR" dev.waldoconf.lab.container.ImageContext "$CONTEXT/ctx"
docker build -q -t "$TAG" "$CONTEXT/ctx"
echo "built $TAG; run: docker run --rm --network host $TAG --name sw1 --port 1161"
