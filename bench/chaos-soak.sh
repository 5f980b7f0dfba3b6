#!/usr/bin/env bash
# The chaos soak's long form: ChaosSoakClusterIT with 50 faults (sampler worker, trainer worker or
# driver killed with SIGKILL at seeded random moments; the first run and a third of the reruns also
# halted at a named window around a checkpoint: after a step's records and before its checkpoint,
# mid-checkpoint write, right after the rename, and before the first checkpoint), the same command
# rerun after each stop; the final checkpoint, batches.jsonl and metrics.jsonl must equal an
# uninterrupted run's. The build runs the short form (5 faults) in the tests module.
# Usage: bench/chaos-soak.sh [faults] [seed]   (default 50 faults, seed 20261202)
# Its head runs on its own port pair: RAY_PORT and RAY_DASHBOARD_PORT when set, else the first free
# pair from 6393/8278 upwards (never the default 6379/8265 of a head someone else may be using);
# it is stopped afterwards. Only ChaosSoakClusterIT runs: the modules are compiled, not tested.
# Prints the injected faults, the number of runs, the time, and the test's verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
faults="${1:-50}"
seed="${2:-20261202}"

# A port is free when nothing accepts a connection on it (the client server and the dashboard
# agent take port + 1000 too).
free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port="${RAY_PORT:-}"
dash="${RAY_DASHBOARD_PORT:-}"
if [ -z "$port" ] || [ -z "$dash" ]; then
  for ((i = 0; i < 100; i++)); do
    p=$((6393 + i)) d=$((8278 + i))
    if free "$p" && free "$d" && free $((p + 1000)) && free $((d + 1000)); then
      port="${port:-$p}" dash="${dash:-$d}"
      break
    fi
  done
fi
if [ -z "$port" ] || [ -z "$dash" ]; then
  echo "chaos-soak.sh: no free port pair" >&2
  exit 1
fi
export RAY_PORT="$port" RAY_DASHBOARD_PORT="$dash" RAY_TEMP_DIR="/tmp/javelin-ray-$port"
stop_head() { tools/setup/ray-cluster.sh stop >/dev/null 2>&1 || true; }
trap stop_head EXIT
echo "chaos-soak.sh: head on 127.0.0.1:$port (dashboard $dash), $faults faults, seed $seed"
uptime
tools/setup/ray-cluster.sh install
tools/setup/ray-cluster.sh start
failsafe=org.apache.maven.plugins:maven-failsafe-plugin:3.5.2
set +e
# test-compile, then failsafe's goals by name: no surefire execution of any module runs.
./mvnw -B -pl tests -am -Dspotless.check.skip=true -Djavelin.skipTestSetup=true \
  test-compile "$failsafe:integration-test" "$failsafe:verify" \
  -Djavelin.ray.port="$port" -Djavelin.ray.dashboard.port="$dash" \
  -Dit.test=ChaosSoakClusterIT -Dfailsafe.failIfNoSpecifiedTests=false \
  -Djavelin.chaos.faults="$faults" -Djavelin.chaos.seed="$seed" 2>&1 |
  grep -E 'chaos soak|  run [0-9]+, after|Tests run:|FAIL|ERROR|BUILD'
status=("${PIPESTATUS[@]}")
set -e
uptime
[ "${status[0]}" -eq 0 ] || { echo "chaos-soak.sh: the soak failed (mvn exit ${status[0]})" >&2; exit 1; }
