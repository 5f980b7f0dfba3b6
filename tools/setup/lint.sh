#!/usr/bin/env bash
# Lints what is not Java: every tracked shell script with shellcheck, the Python under tools/ and
# bench/ with ruff. Installs both when missing (ruff into .venv via venv.sh; shellcheck from Debian's
# packages when run as root). The build runs this in `verify` (tests module).
# Usage: tools/setup/lint.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
if ! command -v shellcheck >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "lint.sh: installing shellcheck (apt-get)"
    apt-get install -y -q shellcheck >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q shellcheck >/dev/null; }
  else
    echo "lint.sh: shellcheck not found; install it (apt-get install shellcheck)" >&2
    exit 2
  fi
fi
tools/setup/venv.sh tools/requirements/lint.txt
mapfile -t scripts < <(git ls-files '*.sh' javelin .ci/run)
shellcheck -f gcc "${scripts[@]}"
.venv/bin/ruff check --quiet --output-format concise tools bench
echo "lint.sh: ${#scripts[@]} shell scripts and the Python tools are clean"
