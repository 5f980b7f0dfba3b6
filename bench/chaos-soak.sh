#!/usr/bin/env bash
# The chaos soak's long form: ChaosSoakClusterIT with 50 faults (sampler worker, trainer worker or
# driver killed with SIGKILL at seeded random moments, the same command rerun after each stop) on
# the build's Ray head. The build runs the short form (5 faults) in the tests module.
# Usage: bench/chaos-soak.sh [faults] [seed]   (default 50 faults, seed 20261202)
# Its head runs on its own port pair (RAY_PORT, RAY_DASHBOARD_PORT; default 6393/8278), never the
# default 6379/8265 of a head someone else may be using, and is stopped afterwards.
# Prints the injected faults, the number of runs, the time, and the test's verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
faults="${1:-50}"
seed="${2:-20261202}"
port="${RAY_PORT:-6393}"
dash="${RAY_DASHBOARD_PORT:-8278}"
stop_head() { RAY_PORT="$port" RAY_DASHBOARD_PORT="$dash" RAY_TEMP_DIR="/tmp/javelin-ray-$port" \
  tools/setup/ray-cluster.sh stop >/dev/null 2>&1 || true; }
trap stop_head EXIT
uptime
set +e
./mvnw -B -pl tests -am verify -Dspotless.check.skip=true \
  -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Djavelin.ray.port="$port" -Djavelin.ray.dashboard.port="$dash" \
  -Dit.test=ChaosSoakClusterIT -Dfailsafe.failIfNoSpecifiedTests=false -Djavelin.ray.newest.skip=true \
  -Djavelin.chaos.faults="$faults" -Djavelin.chaos.seed="$seed" 2>&1 |
  grep -E 'chaos soak|  run [0-9]+, after|Tests run:|FAIL|ERROR|BUILD'
status=("${PIPESTATUS[@]}")
set -e
uptime
[ "${status[0]}" -eq 0 ] || { echo "chaos-soak.sh: the soak failed (mvn exit ${status[0]})" >&2; exit 1; }
