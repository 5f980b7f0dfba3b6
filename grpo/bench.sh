#!/usr/bin/env bash
# Benchmarks GRPO advantages + actor loss at B=256, T=512: the Java implementation, then the
# numpy reference (tools/grpo_reference.py --bench) on the same sizes, back to back.
# Usage: grpo/bench.sh            (needs tools/setup/venv.sh tools/requirements/grpo.txt for numpy)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
./mvnw -B -q -pl grpo test-compile
cp="grpo/target/classes:grpo/target/test-classes"
java -cp "$cp" dev.javelin.grpo.bench.GrpoBench 256 512 51
if [ -x .venv/bin/python ]; then
  .venv/bin/python tools/grpo_reference.py --bench
else
  echo "no .venv: run tools/setup/venv.sh tools/requirements/grpo.txt for the numpy side" >&2
fi
