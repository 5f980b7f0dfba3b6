#!/usr/bin/env bash
# Per-chip memory of Javelin programs compiled ahead of time for a TPU topology (no TPU needed):
#   fence  - 8 residual blocks' gradient with NONE / BLOCKS without barriers / BLOCKS
#   train  - Qwen2.5-0.5B-shape fused train step (bf16, fsdp=8) with NONE / BLOCKS
# Usage: bench/tpu-memory.sh [topology v5e:2x4] [layers 2] [batch 8] [tokens 1024]
# Needs libtpu in .venv (tools/requirements/libtpu.txt) and tools/tpu_stablehlo_stats.py.
# Real-size train compiles take many minutes each; `uptime` is printed around each figure.
set -euo pipefail
cd "$(dirname "$0")/.."
topology=${1:-v5e:2x4}
layers=${2:-2}
batch=${3:-8}
tokens=${4:-1024}
out=${OUT:-tpu-backend/target/tpu-memory}
read -ra mvn_flags <<< "${MVN_FLAGS:-}" # extra Maven flags, e.g. -o
cpfile="$PWD/tpu-backend/target/tpu-memory-classpath.txt"
# one reactor run: the backend's layers (tpu-backend/*/) resolve from it; tpu-backend writes last
./mvnw -B -q "${mvn_flags[@]}" -pl tpu-backend -am test-compile dependency:build-classpath \
  -Djavelin.skipTestSetup=true -Dmdep.includeScope=test -Dmdep.excludeGroupIds=dev.javelin -Dmdep.outputFile="$cpfile" >/dev/null
cp="tpu-backend/target/test-classes:$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)$(cat "$cpfile")"
mkdir -p "$out"
stats() {
  uptime
  ALLOW_MULTIPLE_LIBTPU_LOAD=1 .venv/bin/python tools/tpu_stablehlo_stats.py "$1" --topology "$topology"
}
for remat in NONE BLOCKS_UNFENCED BLOCKS; do
  java -cp "$cp" dev.javelin.backend.xla.TpuProgramDump fence "$out/fence_$remat.mlir" "$remat"
  stats "$out/fence_$remat.mlir"
done
for remat in NONE BLOCKS; do
  f="$out/train_l${layers}_b${batch}_t${tokens}_$remat.mlir"
  java -Xmx8g -cp "$cp" dev.javelin.backend.xla.TpuProgramDump "$f" "$layers" "$batch" "$tokens" "$remat" 8
  stats "$f"
done
uptime
