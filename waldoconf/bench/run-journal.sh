#!/usr/bin/env bash
# CPU of one device-journal write (not a test): appending a frame to a SnapshotLog against replacing
# the file (temporary, fsync, rename, directory fsync), one journal per switch as a site agent keeps
# them, in alternating rounds (dev.waldoconf.service.JournalWriteBenchmark). The journals go to a
# temporary directory under $TMPDIR (default /tmp): run it on the disk the journals would live on.
# Usage: waldoconf/bench/run-journal.sh [SWITCHES [ROUNDS [BYTES]]]   (default: 1000 5 1500)
set -euo pipefail
# shellcheck source=../../bench/lib/module-bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../bench/lib/module-bench.sh"
module_bench waldoconf dev.waldoconf.service.JournalWriteBenchmark "$@"
