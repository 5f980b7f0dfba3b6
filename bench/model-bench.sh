#!/usr/bin/env bash
# Model benchmark: the same decoder config in Javelin's CPU device and in PyTorch CPU, side by side.
#   train  - fwd + bwd + AdamW tokens/s, batch 64 x 128 tokens ("tiny" ~5M, "small" ~50M params)
#   decode - batched greedy decode with KV cache, 64 sequences, 16-token prompts, 64 new tokens
# Java also reports the share of train-step kernel time in matrix products and their GFLOP/s,
# and heap start/peak/end during decode.
# Usage: bench/model-bench.sh [tiny|small ...]          (default: tiny small)
# Needs: tools/setup/venv.sh tools/requirements/hf.txt  (torch + transformers in .venv)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then configs=(tiny small); else configs=("$@"); fi
./mvnw -B -q -pl tpu-backend -am install -DskipTests
cpfile="$PWD/tpu-backend/target/bench-classpath.txt"
./mvnw -B -q -pl tpu-backend dependency:build-classpath -Dmdep.excludeGroupIds=dev.javelin -Dmdep.includeScope=test \
  -Dmdep.outputFile="$cpfile" >/dev/null
cp="tpu-backend/target/test-classes:$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)$(cat "$cpfile")"
py=.venv/bin/python
[ -x "$py" ] || { echo "no .venv: run tools/setup/venv.sh tools/requirements/hf.txt" >&2; exit 2; }
for cfg in "${configs[@]}"; do
  for task in train decode; do
    java -Xmx16g -cp "$cp" dev.javelin.backend.bench.ModelBenchmark \
      --device cpu --config "$cfg" --task "$task" --iters 3
    "$py" tools/torch_bench.py --config "$cfg" --task "$task" --iters 3 --threads 2
  done
done
