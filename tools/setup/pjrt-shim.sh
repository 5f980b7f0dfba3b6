#!/usr/bin/env bash
# Builds the PJRT JNI shim (tpu-backend/device-xla/src/main/native/xla/pjrt_jni.c) against the
# pjrt_c_api.h shipped by the xla-cpu-pjrt package in .venv (tools/requirements/pjrt-cpu.txt),
# into <out-dir>/dev/javelin/backend/xla/linux-x86_64/libjavelin_pjrt.so.
# Idempotent: skips when the library is newer than its source and header.
# Usage: tools/setup/pjrt-shim.sh <out-dir>
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:?usage: pjrt-shim.sh <out-dir>}/dev/javelin/backend/xla/linux-x86_64"
src="$root/tpu-backend/device-xla/src/main/native/xla/pjrt_jni.c"
headers=("$root"/.venv/lib/python*/site-packages/xla_plugins/xla_cpu_pjrt/include/pjrt_c_api.h)
header=""
[ -f "${headers[0]}" ] && header="${headers[0]}"
if [ -z "$header" ]; then
  echo "pjrt-shim.sh: pjrt_c_api.h not found in .venv; run tools/setup/venv.sh tools/requirements/pjrt-cpu.txt" >&2
  exit 2
fi
lib="$out/libjavelin_pjrt.so"
if [ -f "$lib" ] && [ "$lib" -nt "$src" ] && [ "$lib" -nt "$header" ]; then
  exit 0
fi
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
mkdir -p "$out"
cc="${CC:-gcc}"
"$cc" -O2 -std=c11 -Wall -shared -fPIC \
  -I"$java_home/include" -I"$java_home/include/linux" -I"$(dirname "$header")" \
  -o "$lib.tmp" "$src" -ldl
mv "$lib.tmp" "$lib"
echo "pjrt-shim.sh: built $lib"
