#!/usr/bin/env bash
# A Ray head node on loopback for Javelin's cluster mode and cluster tests.
#   tools/setup/ray-cluster.sh install   # .venv-ray with tools/requirements/ray.txt (idempotent)
#   tools/setup/ray-cluster.sh start     # head on 127.0.0.1:$RAY_PORT, dashboard :$RAY_DASHBOARD_PORT
#   tools/setup/ray-cluster.sh status    # is this head up? (exit 0 yes, 3 no)
#   tools/setup/ray-cluster.sh stop      # stops only the processes of the head this script started
#   tools/setup/ray-cluster.sh check-loopback  # fails when a head process listens beyond 127.0.0.1
# Every port of the head is bound to 127.0.0.1 (start fails otherwise): see docs/CLUSTER.md for
# opening a head to other hosts deliberately.
# Environment: RAY_PORT (6379), RAY_DASHBOARD_PORT (8265), RAY_NUM_CPUS (8: trainer + samplers +
# registry; logical CPUs, not cores), RAY_TEMP_DIR (/tmp/javelin-ray-$RAY_PORT; short, because Ray
# puts unix sockets under it). The client server and dashboard agent listen on RAY_PORT+1000 and
# RAY_DASHBOARD_PORT+1000 instead of fixed defaults, so heads on other ports do not collide.
# RAY_VERSION (optional, e.g. 2.60.0): use .venv-ray-$RAY_VERSION holding ray[default]==$RAY_VERSION
# instead of .venv-ray with tools/requirements/ray.txt, to run a head of another Ray version.
# Every head is told apart by its temp dir, so several heads (one per port) can run on one machine
# and `stop` never touches another's processes: no bare `ray stop`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
req="$root/tools/requirements/ray.txt"
if [ -n "${RAY_VERSION:-}" ]; then
  venv="$root/.venv-ray-$RAY_VERSION"
  pip_args=("ray[default]==$RAY_VERSION")
else
  venv="$root/.venv-ray"
  pip_args=(-r "$req")
fi
# Ray's processes name the venv by its real path: a symlinked venv must match them in head_pids.
if [ -e "$venv" ]; then venv="$(cd "$venv" && pwd -P)"; fi
port="${RAY_PORT:-6379}"
dash="${RAY_DASHBOARD_PORT:-8265}"
cpus="${RAY_NUM_CPUS:-8}"
tmp="${RAY_TEMP_DIR:-/tmp/javelin-ray-$port}"
pids="$tmp/javelin-head.pids"

say() { echo "ray-cluster: $*" >&2; }

install() {
  if [ ! -x "$venv/bin/python" ]; then
    say "creating $venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip
  fi
  local stamp="$venv/.stamp-ray" hash
  hash="$({ printf '%s\n' "${pip_args[@]}"; cat "$req"; } | sha256sum | cut -c1-16)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$hash" ]; then
    say "installing ${pip_args[*]} into $venv"
    "$venv/bin/python" -m pip install -q "${pip_args[@]}"
    echo "$hash" > "$stamp"
  fi
  local jar
  jar="$(ray_jar)"
  [ -f "$jar" ] || { say "no $jar after install"; exit 1; }
  ln -sfn "$jar" "$venv/ray_dist.jar" # a stable path for the launcher and the tests pom
  say "ready: $venv/bin/ray ($("$venv/bin/python" -c 'import ray; print(ray.__version__)')), $jar"
}

# The jar with Ray's native core worker, needed on a cluster-mode driver's classpath.
ray_jar() {
  local site
  site="$("$venv/bin/python" -c 'import ray, os; print(os.path.dirname(ray.__file__))')"
  echo "$site/jars/ray_dist.jar"
}

dashboard_up() { curl -fsS -m 2 "http://127.0.0.1:$dash/api/version" >/dev/null 2>&1; }

# PIDs of this head's processes (gcs, raylet, dashboard, agents, log monitor, workers): every one
# names the head's temp dir on its command line, except the Ray client server, which is told apart
# by this venv's python and its port (RAY_PORT+1000); without it, every stop left one orphan behind.
# Recorded pids are re-checked the same way, so a pid the kernel reused is never touched.
head_pids() {
  local p client="$venv/bin/python -m ray.util.client.server "
  { [ -f "$pids" ] && cat "$pids"; pgrep -f -- "$tmp/" || true; pgrep -f -- "$client" || true; } \
    | sort -un | while read -r p; do
    if [ -z "$p" ] || [ "$p" = "$$" ]; then continue; fi
    local cmd
    cmd="$({ tr '\0' ' ' < "/proc/$p/cmdline"; } 2>/dev/null || true)"
    if [[ "$cmd" == *"$tmp/"* ]] \
      || [[ "$cmd" == "$client"* && "$cmd" == *" --port=$((port + 1000)) "* ]]; then
      echo "$p"
    fi
  done
  return 0 # under pipefail a last non-match must not abort the caller
}

# Every TCP port this head's processes listen on must be on loopback: prints any that is not and
# fails. Without `ss` (iproute2) it says so and passes.
check_loopback() {
  command -v ss >/dev/null || { say "no ss: listening sockets not checked"; return 0; }
  local list open
  list="$(head_pids | paste -sd'|' -)"
  [ -n "$list" ] || return 0
  open="$(ss -ltnpH 2>/dev/null | grep -E "pid=($list)," | awk '{print $4}' \
    | grep -vE '^(127\.0\.0\.1|\[::ffff:127\.0\.0\.1\]|\[::1\]):' || true)"
  if [ -n "$open" ]; then
    say "head listens beyond loopback: $(echo "$open" | xargs)"
    return 1
  fi
  say "every listening socket of the head is on loopback ($(ss -ltnpH 2>/dev/null \
    | grep -cE "pid=($list),") sockets)"
}

start() {
  [ -x "$venv/bin/ray" ] || { say "no $venv: run '$0 install' first"; exit 2; }
  if dashboard_up && [ -n "$(head_pids)" ]; then
    say "already running: address 127.0.0.1:$port, dashboard http://127.0.0.1:$dash (temp dir $tmp)"
    return 0
  fi
  if dashboard_up; then
    say "port $dash answers but is not this head (temp dir $tmp): choose RAY_DASHBOARD_PORT"
    exit 1
  fi
  mkdir -p "$tmp"
  say "starting head on 127.0.0.1:$port (dashboard :$dash, $cpus CPUs, temp dir $tmp)"
  # The head's Java workers load classes from the job's code search path; none of their own.
  RAY_USAGE_STATS_ENABLED=0 RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 \
    "$venv/bin/ray" start --head --node-ip-address=127.0.0.1 \
    --port="$port" --dashboard-host=127.0.0.1 --dashboard-port="$dash" --include-dashboard=true \
    --num-cpus="$cpus" --temp-dir="$tmp" --disable-usage-stats \
    --ray-client-server-port="$((port + 1000))" --dashboard-agent-listen-port="$((dash + 1000))" \
    >"$tmp/start.log" 2>&1 || {
      cat "$tmp/start.log" >&2; say "ray start failed"; stop; exit 1; }
  pgrep -f -- "$tmp/" > "$pids" || true
  for _ in $(seq 1 120); do
    if dashboard_up; then
      head_pids > "$pids"
      say "up: address 127.0.0.1:$port, dashboard http://127.0.0.1:$dash ($(wc -l < "$pids") processes)"
      sleep 2 # the dashboard agent and the metrics exporter bind after the dashboard answers
      check_loopback || { stop; exit 1; }
      return 0
    fi
    sleep 1
  done
  say "dashboard http://127.0.0.1:$dash/api/version did not answer in 120 s; log: $tmp/start.log"
  stop
  exit 1
}

stop() {
  local list
  list="$(head_pids | xargs)"
  if [ -z "$list" ]; then
    say "no head running under $tmp"
    return 0
  fi
  say "stopping head under $tmp (pids $list)"
  # shellcheck disable=SC2086
  kill -TERM $list 2>/dev/null || true
  for _ in $(seq 1 20); do
    [ -z "$(head_pids)" ] && break
    sleep 0.5
  done
  list="$(head_pids | xargs)"
  # shellcheck disable=SC2086
  # shellcheck disable=SC2086  # $list is a space-separated list of pids
  if [ -n "$list" ]; then kill -KILL $list 2>/dev/null || true; fi
  rm -f "$pids"
  say "stopped"
}

status() {
  if dashboard_up && [ -n "$(head_pids)" ]; then
    echo "running: address 127.0.0.1:$port, dashboard http://127.0.0.1:$dash, temp dir $tmp"
    "$venv/bin/ray" status --address="127.0.0.1:$port" 2>/dev/null | sed -n '/Resources/,$p' || true
    return 0
  fi
  echo "not running (address 127.0.0.1:$port, temp dir $tmp)"
  return 3
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  jar) ray_jar ;;
  check-loopback) check_loopback ;;
  *) echo "usage: $0 install|start|stop|status|check-loopback|jar" >&2; exit 2 ;;
esac
