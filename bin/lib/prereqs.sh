# Sourced by bin/test. Installs what the tests need beyond Maven's own
# downloads: net-snmp tools (interop peers) and a Docker engine (lab
# containers). Without root or apt-get it only reports what is missing; the
# tests that need a missing piece then say so themselves.

apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "note: cannot install $* (needs root and apt-get); tests that need it will report it" >&2
    return 0
  fi
  if [ -z "${WALDO_APT_UPDATED:-}" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || true
    export WALDO_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null \
    || echo "note: apt-get install $* failed; tests that need it will report it" >&2
}

# Starts dockerd in the background when no engine answers, and waits for it.
start_docker_engine() {
  docker info >/dev/null 2>&1 && return 0
  command -v dockerd >/dev/null 2>&1 || return 0
  [ "$(id -u)" = 0 ] || return 0
  echo "Starting dockerd in the background (log: /tmp/waldoconf-dockerd.log)"
  nohup dockerd >/tmp/waldoconf-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && return 0
    sleep 1
  done
  echo "note: dockerd did not answer within 60 s; container tests will report it" >&2
}

install_test_prerequisites() {
  local missing=()
  command -v snmpget >/dev/null 2>&1 || missing+=(snmp)
  command -v snmpd >/dev/null 2>&1 || missing+=(snmpd)
  command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
  start_docker_engine
  # Tell the container tests an engine is expected, so they fail loudly
  # rather than skip when Testcontainers cannot reach it.
  if docker info >/dev/null 2>&1; then export WALDO_EXPECT_DOCKER=1; fi
  # Likewise the net-snmp interop tests fail rather than skip when the tools are here.
  if command -v snmpget >/dev/null 2>&1; then export WALDO_EXPECT_SNMP=1; fi
}
