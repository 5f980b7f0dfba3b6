#!/usr/bin/env bash
# The chaos soak's long form: ChaosSoakClusterIT with 50 faults (sampler worker, trainer worker or
# driver killed with SIGKILL at seeded random moments, the same command rerun after each stop) on
# the build's Ray head. The build runs the short form (5 faults) in the tests module.
# Usage: bench/chaos-soak.sh [faults] [seed]   (default 50 faults, seed 20261202)
# Prints the injected faults, the number of runs, the time, and the test's verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
faults="${1:-50}"
seed="${2:-20261202}"
uptime
./mvnw -B -pl tests -am verify -Dspotless.check.skip=true \
  -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ChaosSoakClusterIT -Dfailsafe.failIfNoSpecifiedTests=false -Djavelin.ray.newest.skip=true \
  -Djavelin.chaos.faults="$faults" -Djavelin.chaos.seed="$seed" 2>&1 |
  grep -E 'chaos soak|  run [0-9]+, after|Tests run:|FAIL|ERROR|BUILD' || true
uptime
