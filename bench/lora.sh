#!/usr/bin/env bash
# LoRA benchmarks on the small config (51M), cpu device, one JVM per figure, `uptime` around each:
#   train   - the trainer's step (log-probs, host NLL, gradients, AdamW) with LoRA r vs full
#             fine-tuning: step time, weights / trainable parameters / AdamW bytes, heap
#   sync    - weight sync merged vs adapters vs unmerged: bytes, sync time, sampler decode tok/s
# Usage: bench/lora.sh [rank 16] [train batch 8] [seq 128] [iters 3]
# Builds with test-compile only (no install); needs nothing outside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
rank=${1:-16}
batch=${2:-8}
seq=${3:-128}
iters=${4:-3}
read -ra mvn_flags <<< "${MVN_FLAGS:-}" # extra Maven flags, e.g. -o
cpfile="$PWD/tests/target/lora-bench-classpath.txt"
# one reactor run: the sibling modules resolve from it; tests (the last module) writes $cpfile last
./mvnw -B -q "${mvn_flags[@]}" -pl tests -am test-compile dependency:build-classpath \
  -Djavelin.skipTestSetup=true -Dmdep.includeScope=test -Dmdep.excludeGroupIds=dev.javelin \
  -Dmdep.outputFile="$cpfile"
cp="tests/target/test-classes:tpu-backend/target/test-classes"
for m in tpu-backend tpu-backend/*/ grpo rewards datasets weight-sync sampler trainer recipes; do
  cp="$cp:${m%/}/target/classes"
done
cp="$cp:$(cat "$cpfile")"
for r in "$rank" 0; do
  uptime
  java -Xmx8g -Djavelin.bench.profile=false -cp "$cp" dev.javelin.backend.bench.ModelBenchmark \
    --device cpu --config small --task train --lora "$r" --batch "$batch" --seq "$seq" \
    --iters "$iters"
done
uptime
java -Xmx8g -cp "$cp" dev.javelin.tests.bench.LoraSyncBench "$rank" 5 32 32
uptime
