#!/usr/bin/env bash
# Makes sure headless Chromium is installed for the report test: installs Debian's `chromium`
# package with apt-get when it is missing and we are root, else fails with the command to run.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "chromium.sh: installing chromium with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >/dev/null \
    || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >/dev/null; }
  exit 0
fi
echo "chromium.sh: the report test needs headless Chromium; install it with: sudo apt-get install -y chromium" >&2
exit 1
