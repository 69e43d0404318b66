# Sourced by bin/test. Installs what the tests need beyond Maven's own
# downloads: net-snmp (the `snmp` tools as interop peers of the lab switches,
# and the `snmpd` agent that the custom-service tests change), a Docker
# engine (lab containers), Compose (`docker-compose`, the deploy/compose test)
# and kubectl (`kubernetes-client`, the offline deploy/k8s manifest test).
#
# Outside CI a missing tool is reported and the tests that need it skip, each
# printing why. Under CI (CI=true) a tool that cannot be installed or started
# fails bin/test before Maven runs, saying what is missing: a CI run must not
# turn green by skipping the tests that matter most.

# Where to look for a program beyond PATH: agents such as snmpd and dockerd
# live in sbin folders, which are not on a normal user's PATH. The Java tests
# look in the same places (dev.waldoconf.lab.Executables).
WALDO_SBIN_DIRS="${WALDO_SBIN_DIRS:-/usr/local/sbin:/usr/sbin:/sbin}"

# Prints the path of program $1 (PATH first, then the sbin folders); fails if none.
find_program() {
  local dir
  local IFS=:
  for dir in ${PATH:-} $WALDO_SBIN_DIRS; do
    if [ -n "$dir" ] && [ -x "$dir/$1" ] && [ ! -d "$dir/$1" ]; then
      echo "$dir/$1"
      return 0
    fi
  done
  return 1
}

apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "note: cannot install $* (needs root and apt-get)" >&2
    return 0
  fi
  if [ -z "${WALDO_APT_UPDATED:-}" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || true
    export WALDO_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null \
    || echo "note: apt-get install $* failed" >&2
}

# Starts dockerd in the background when no engine answers, and waits for it.
start_docker_engine() {
  docker info >/dev/null 2>&1 && return 0
  local dockerd
  dockerd="$(find_program dockerd)" || return 0
  [ "$(id -u)" = 0 ] || return 0
  echo "Starting dockerd in the background (log: /tmp/waldoconf-dockerd.log)"
  nohup "$dockerd" >/tmp/waldoconf-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && return 0
    sleep 1
  done
  echo "note: dockerd did not answer within 60 s (log: /tmp/waldoconf-dockerd.log)" >&2
}

# Prints one line per required tool that is missing or not working, with what to do; nothing when all are there.
missing_test_tools() {
  local tool
  for tool in snmpget snmpset snmpwalk; do
    find_program "$tool" >/dev/null || echo "net-snmp tool '$tool' (lab interop tests): apt-get install snmp"
  done
  find_program snmpd >/dev/null \
    || echo "net-snmp agent 'snmpd', on PATH or in $WALDO_SBIN_DIRS (custom-service tests): apt-get install snmpd"
  if ! command -v docker >/dev/null 2>&1; then
    echo "the 'docker' command (container tests): apt-get install docker.io"
  elif ! docker info >/dev/null 2>&1; then
    echo "a Docker engine that answers 'docker info' (container tests): start dockerd (as root), see /tmp/waldoconf-dockerd.log"
  fi
  compose_available \
    || echo "Compose, 'docker compose' or 'docker-compose' (deploy/compose test): apt-get install docker-compose"
  command -v kubectl >/dev/null 2>&1 \
    || echo "'kubectl' (deploy/k8s manifest test, offline): apt-get install kubernetes-client"
}

# Succeeds when the engine's compose plugin or the standalone docker-compose answers.
compose_available() {
  docker compose version >/dev/null 2>&1 || docker-compose version >/dev/null 2>&1
}

# Installs and starts what the tests need, then tells the tests which tools
# are here (WALDO_EXPECT_*), so that those tests fail rather than skip if they
# still cannot use them. Under CI=true, returns non-zero (after saying what is
# missing) when a tool is still missing.
install_test_prerequisites() {
  local missing=()
  { find_program snmpget && find_program snmpset && find_program snmpwalk; } >/dev/null || missing+=(snmp)
  find_program snmpd >/dev/null || missing+=(snmpd)
  command -v docker >/dev/null 2>&1 && find_program dockerd >/dev/null || missing+=(docker.io)
  # The deployment tests (dist/): Compose brings deploy/compose up; kubectl renders deploy/k8s offline.
  compose_available || missing+=(docker-compose)
  command -v kubectl >/dev/null 2>&1 || missing+=(kubernetes-client)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
  start_docker_engine

  # Each flag names what the tests behind it really run: the interop tests run
  # snmpget/snmpset/snmpwalk and the custom-service tests start snmpd, so
  # WALDO_EXPECT_SNMP needs all four; the container tests need an engine that answers.
  if docker info >/dev/null 2>&1; then export WALDO_EXPECT_DOCKER=1; fi
  # The Compose test gives its secrets to the image's non-root user, which takes root.
  if docker info >/dev/null 2>&1 && compose_available && [ "$(id -u)" = 0 ]; then
    export WALDO_EXPECT_COMPOSE=1
  fi
  if command -v kubectl >/dev/null 2>&1; then export WALDO_EXPECT_KUBECTL=1; fi
  if find_program snmpget >/dev/null && find_program snmpset >/dev/null && find_program snmpwalk >/dev/null \
      && find_program snmpd >/dev/null; then
    export WALDO_EXPECT_SNMP=1
  fi

  local problems
  problems="$(missing_test_tools)"
  [ -n "$problems" ] || return 0
  if [ "${CI:-}" = true ]; then
    echo "bin/test: CI=true, and tests need what is missing here (they would skip, so CI fails instead):" >&2
    echo "$problems" | sed 's/^/  - /' >&2
    echo "Install or start it (bin/test does so itself when it runs as root with apt-get), then run bin/test again." >&2
    return 1
  fi
  echo "note: missing here, the tests that need it will skip and say so:" >&2
  echo "$problems" | sed 's/^/  - /' >&2
}
