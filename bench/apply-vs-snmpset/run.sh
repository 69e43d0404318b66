#!/usr/bin/env bash
# The benchmark a network engineer asks for: end-to-end wall time of `bin/waldoconf apply
# configs/vlan.yaml` as a user runs it from the shell (JVM start, one TLS connection to the lab's site agent,
# reads, two-phase commit), against the same change pushed with net-snmp `snmpset`: (a) a loop, one
# switch after another, and (b) the same in parallel with `xargs -P 16`. Neither loop is atomic.
# Then, with one switch refusing the change, how many switches each approach leaves changed.
#
# Every figure comes from a fresh `waldoconf lab up` (factory-default switches, the given device
# profile; see lab/README.md), so each approach starts from the same state. Bounded: every command
# has a timeout. Prints a Markdown report on stdout (progress on stderr). Not part of bin/test.
#
#   bench/apply-vs-snmpset/run.sh                      # sizes 8 48 128, profiles fast slow-cpu
#   SIZES="8" PROFILES="fast" bench/apply-vs-snmpset/run.sh
#   SIZES="512 1000" bench/apply-vs-snmpset/run.sh     # larger labs take minutes to start
#
# Environment: SIZES, PROFILES, PARALLEL (16), REFUSE_SIZES (8 48), TIMEOUT_S (per command, 600),
# KEEP_LOGS (a folder for the lab's log and the output of an apply that failed; a failed apply is
# reported in the table and the loops still run).
# Needs snmpset/snmpget/snmpwalk (Debian package `snmp`).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
for tool in snmpset snmpget snmpwalk xargs timeout; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found (apt-get install snmp)" >&2; exit 1; }
done
SIZES="${SIZES:-8 48 128}"
PROFILES="${PROFILES:-fast slow-cpu}"
PARALLEL="${PARALLEL:-16}"
REFUSE_SIZES="${REFUSE_SIZES:-8 48}"
TIMEOUT_S="${TIMEOUT_S:-600}"
PLAN="configs/vlan.yaml"
work="$(mktemp -d /tmp/waldoconf-apply-bench.XXXXXX)"
labs=()

cleanup() {
  local dir
  for dir in "${labs[@]}"; do
    timeout 60 bin/waldoconf lab down --dir "$dir" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
TICKS_PER_S="$(getconf CLK_TCK)"
TIMEFORMAT='%3U %3S'
# CPU time (user + system, ms) the lab process (switches and services) has used so far: the
# machine is shared, so wall time alone mixes in other work; CPU time does not.
lab_cpu_ms() {
  local pid; pid="$(sed -n 's/^pid=//p' "$1/lab.properties")"
  awk -v t="$TICKS_PER_S" '{ print int(($14 + $15) * 1000 / t) }' "/proc/$pid/stat"
}
# Runs "$@" (output to $work/run.log), timing it; sets took_ms, cpu_ms (the command and its children,
# plus what the lab process of $lab_dir spent meanwhile) and status.
timed() {
  local start lab_before times
  status=0; lab_before="$(lab_cpu_ms "$lab_dir")"; start=$(now_ms)
  # Not in a $(...) subshell, so that status stays set here.
  { time { "$@" >"$work/run.log" 2>&1 || status=$?; }; } 2>"$work/time"
  took_ms=$(( $(now_ms) - start ))
  times="$(tail -1 "$work/time")"
  local lab_ms=$(( $(lab_cpu_ms "$lab_dir") - lab_before ))
  cpu_ms="$(awk -v t="$times" -v lab=$lab_ms 'BEGIN { split(t, a, " "); printf "%d", (a[1] + a[2]) * 1000 + lab }')"
  # The lab's share on its own (progress, not in the report), with the 1-minute load average.
  log "$1: ${took_ms} ms wall, ${cpu_ms} ms CPU of which the lab process ${lab_ms} ms; load $(cut -d' ' -f1 /proc/loadavg)"
}

# What configs/vlan.yaml does to a factory-default 24-port lab switch, as one SET PDU: VLANs 10
# (users: ports 1-8 untagged, 24 tagged), 20 (voice: 1-8 and 24 tagged) and 99 (mgmt: 24 tagged)
# created with their names; ports 1-8 leave VLAN 1 and get PVID 10. (VLAN 30 does not exist on a
# factory switch, so there is nothing to remove.) A script writer's fastest form: one PDU a switch.
# PortLists: octet 1 = ports 1-8, most significant bit first (RFC 4363).
STATIC=1.3.6.1.2.1.17.7.1.4.3.1
PVID=1.3.6.1.2.1.17.7.1.4.5.1.1
write_setter() {
  local setter="$work/set-one-switch.sh"
  {
    echo '#!/usr/bin/env bash'
    echo '# Pushes the plan to the switch at $1 (HOST:PORT) in one PDU; exit status is snmpset'"'"'s.'
    printf 'exec snmpset -v2c -c "$(cat %q)" -t 3 -r 1 -Oq "$1" \\\n' "$1/community"
    echo "  $STATIC.5.10 i 4 $STATIC.1.10 s users $STATIC.2.10 x FF0001 $STATIC.4.10 x FF0000 \\"
    echo "  $STATIC.5.20 i 4 $STATIC.1.20 s voice $STATIC.2.20 x FF0001 $STATIC.4.20 x 000000 \\"
    echo "  $STATIC.5.99 i 4 $STATIC.1.99 s mgmt $STATIC.2.99 x 000001 $STATIC.4.99 x 000000 \\"
    echo "  $STATIC.2.1 x 00FFFF $STATIC.4.1 x 00FFFF \\"
    for port in 1 2 3 4 5 6 7 8; do echo "  $PVID.$port u 10 \\"; done
    echo '  >/dev/null'
  } > "$setter"
  chmod +x "$setter"
  echo "$setter"
}

# The switches' SNMP addresses, in inventory order.
targets() { sed -n 's/^    snmp: //p' "$1/inventory.yaml"; }

# A fresh lab of $1 switches with profile $2 in $3: its switches' saved state and its services'
# journals are removed first (a service restores its committed state onto its switch as it starts),
# so every switch starts at factory default; the CA, certificates and operator identity are kept.
fresh_lab() {
  local size="$1" profile="$2" dir="$3"
  timeout 120 bin/waldoconf lab down --dir "$dir" >/dev/null 2>&1 || true
  rm -rf "$dir/switches" "$dir"/services/*/journal
  local start attempt; start=$(now_ms)
  # On a busy shared machine a lab's first start (CA, certificates) can exceed lab up's own time
  # limit; the second attempt reuses what the first made.
  for attempt in 1 2 3; do
    if timeout "$TIMEOUT_S" bin/waldoconf lab up --switches "$size" --profile "$profile" --dir "$dir" \
        >"$work/lab-up.log" 2>&1; then
      log "lab of $size switches ($profile) up in $(( $(now_ms) - start )) ms (attempt $attempt)"
      return
    fi
    log "lab up of $size switches ($profile), attempt $attempt: $(tail -1 "$work/lab-up.log")"
    tail -3 "$dir/lab.log" >&2 || true
  done
  echo "error: lab up of $size switches ($profile) failed 3 times" >&2
  exit 1
}

# Copies the lab's log and the failed command's output of the lab in $1 to $KEEP_LOGS/$2-*, if set.
keep_logs() {
  [ -n "${KEEP_LOGS:-}" ] || return 0
  mkdir -p "$KEEP_LOGS"
  cp "$1/lab.log" "$KEEP_LOGS/$2-lab.log" 2>/dev/null || true
  cp "$work/run.log" "$KEEP_LOGS/$2-apply.log"
}

# Sends one control command to switch $2 of the lab in $1 (bash's /dev/tcp: no nc needed).
control() {
  local address host port reply
  address="$(awk -v name="$2" '$1 == name { print $2 }' "$1/control-addresses")"
  host="${address%:*}"; port="${address##*:}"
  exec 3<>"/dev/tcp/$host/$port"
  echo "$3" >&3
  read -r reply <&3
  exec 3>&-
  [[ "$reply" == ok* ]] || { echo "error: control '$3' on $2 answered: $reply" >&2; exit 1; }
}

# How many switches of the lab in $1 hold VLAN 10 (the change) now.
changed_count() {
  local count=0 address
  for address in $(targets "$1"); do
    if snmpget -v2c -c public -t 3 -r 2 -Oqv "$address" "$STATIC.5.10" 2>/dev/null | grep -qx '1\|active'; then
      count=$((count + 1))
    fi
  done
  echo "$count"
}

# Switch 1's static VLAN table and PVIDs, to check that both approaches leave the same state.
state_of_first() {
  local address; address="$(targets "$1" | head -1)"
  snmpwalk -v2c -c public -t 3 -r 2 -Oq "$address" 1.3.6.1.2.1.17.7.1.4.3
  snmpwalk -v2c -c public -t 3 -r 2 -Oq "$address" "$PVID"
}

# The three approaches on the lab in $1 ($2: the one-switch snmpset script); exit status 0 = every
# switch took the change.
run_waldoconf() {
  timeout "$TIMEOUT_S" bin/waldoconf apply "$PLAN" --lab-dir "$1" --yes
}

run_sequential() {
  local address
  for address in $(targets "$1"); do
    # Like a script under `set -e`: stop at the first switch that fails.
    timeout "$TIMEOUT_S" "$2" "$address" || return
  done
}

run_parallel() {
  # xargs carries on past a failing switch and exits 123 when any failed.
  targets "$1" | timeout "$TIMEOUT_S" xargs -P "$PARALLEL" -n 1 "$2"
}

approach_name() {
  case "$1" in
    waldoconf) echo "\`waldoconf apply\` (atomic)" ;;
    sequential) echo "snmpset loop, one switch after another (stops at the first failure)" ;;
    parallel) echo "snmpset, \`xargs -P $PARALLEL\` (carries on past failures)" ;;
  esac
}

run_approach() {
  lab_dir="$2"
  case "$1" in
    waldoconf) timed run_waldoconf "$2" ;;
    sequential) timed run_sequential "$2" "$3" ;;
    parallel) timed run_parallel "$2" "$3" ;;
  esac
}

log "building waldoconf (not timed)"
bin/waldoconf --help >/dev/null
echo "# \`waldoconf apply\` against snmpset loops, end to end from the shell"
echo
echo "Run by \`bench/apply-vs-snmpset/run.sh\` on $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown);"
echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load average at start $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Wall time end to end, and in brackets the CPU time it cost (the command and its children, plus the"
echo "lab process's switches and services meanwhile), in ms."
echo
echo "| profile | switches | waldoconf apply | snmpset loop | snmpset xargs -P $PARALLEL | loop / apply | apply / xargs | same end state |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for profile in $PROFILES; do
  for size in $SIZES; do
    dir="$work/lab-$profile-$size"; labs+=("$dir")
    fresh_lab "$size" "$profile" "$dir"
    setter="$(write_setter "$dir")"
    run_approach waldoconf "$dir"
    apply_ms="$took_ms"; apply_cpu="$cpu_ms"; apply_failure=""
    if [ "$status" != 0 ]; then
      # A failed apply is a result too: it goes in the table (and its logs to $KEEP_LOGS), and the
      # loops still run, so that the row says what they cost at this size.
      apply_failure="$(grep -m1 '^error' "$work/run.log" | cut -c1-100)"
      echo "error: waldoconf apply failed (exit $status):" >&2; tail -5 "$work/run.log" >&2
      keep_logs "$dir" "$profile-$size"
      reference=""
    else
      reference="$(state_of_first "$dir")"
      [ "$(changed_count "$dir")" = "$size" ] || { echo "error: waldoconf apply left switches unchanged" >&2; exit 1; }
    fi
    log "$profile/$size: waldoconf apply $apply_ms ms (cpu $apply_cpu ms), exit $status"
    same="yes"
    for approach in sequential parallel; do
      fresh_lab "$size" "$profile" "$dir"
      run_approach "$approach" "$dir" "$setter"
      [ "$status" = 0 ] || { echo "error: $approach snmpset failed:" >&2; tail -5 "$work/run.log" >&2; exit 1; }
      if [ -z "$reference" ]; then
        same="n/a"
      elif [ "$(state_of_first "$dir")" != "$reference" ]; then
        same="no"
        diff <(echo "$reference") <(state_of_first "$dir") >&2 || true
      fi
      log "$profile/$size: $approach $took_ms ms (cpu $cpu_ms ms)"
      if [ "$approach" = sequential ]; then loop_ms="$took_ms"; loop_cpu="$cpu_ms"
      else xargs_ms="$took_ms"; xargs_cpu="$cpu_ms"; fi
    done
    timeout 120 bin/waldoconf lab down --dir "$dir" >/dev/null 2>&1 || true
    awk -v p="$profile" -v n="$size" -v w="$apply_ms" -v s="$loop_ms" -v x="$xargs_ms" -v wc="$apply_cpu" \
        -v sc="$loop_cpu" -v xc="$xargs_cpu" -v same="$same" -v failed="$apply_failure" 'BEGIN {
        if (failed != "") {
          printf "| %s | %d | FAILED after %d (%d): %s | %d (%d) | %d (%d) | - | - | %s |\n",
            p, n, w, wc, failed, s, sc, x, xc, same
        } else {
          printf "| %s | %d | %d (%d) | %d (%d) | %d (%d) | %.2f | %.2f | %s |\n",
            p, n, w, wc, s, sc, x, xc, s / w, w / x, same
        } }'
  done
done
echo
echo "One timed run per cell, each from a fresh lab; \`waldoconf apply\` includes its JVM start. \"Same end"
echo "state\": switch 1's static VLAN table and PVIDs after the loop equal those after \`waldoconf apply\`."
echo
echo "With one switch refusing (the middle one answers VLAN 10 with commitFailed, set through its control"
echo "interface), profile $(echo "$PROFILES" | cut -d' ' -f1):"
echo
echo "| switches | approach | exit status | time | switches left changed |"
echo "|---:|---|---:|---:|---:|"
profile="$(echo "$PROFILES" | cut -d' ' -f1)"
for size in $REFUSE_SIZES; do
  # The timing runs' lab folder when there was one: its CA and certificates are made already.
  dir="$work/lab-$profile-$size"; labs+=("$dir")
  refusing="lab-$(( size / 2 + 1 ))"
  for approach in waldoconf sequential parallel; do
    fresh_lab "$size" "$profile" "$dir"
    setter="$(write_setter "$dir")"
    control "$dir" "$refusing" "refuse 10 commitFailed"
    run_approach "$approach" "$dir" "$setter"
    changed="$(changed_count "$dir")"
    log "refusal/$size: $approach exit $status, $changed of $size changed"
    echo "| $size | $(approach_name "$approach") | $status | $took_ms ms | $changed of $size |"
  done
  timeout 120 bin/waldoconf lab down --dir "$dir" >/dev/null 2>&1 || true
done
echo
echo "The refusing switch is lab-(N/2+1); \"changed\" counts switches that hold VLAN 10 afterwards, read over SNMP."
