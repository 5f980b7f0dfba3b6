#!/usr/bin/env bash
# Side-by-side GRPO step time on arith-grpo: the Java loop on the cpu device (this checkout's
# tpu-backend classes ahead of the launcher's jars) and, when a torch checkpoint is given, the
# PyTorch reference loop (tools/torch_grpo_ref.py) with 1 and 2 threads. Prints medians per phase.
# Usage: bench/cpu-grpo.sh <sft-model-dir> [steps=24] [torch-init.pt]
# The first 4 Java steps are warm-up (JIT, program compiles) and are left out of the medians.
# Env: PYTHON (default .venv/bin/python, needs torch) runs the reference; TORCH_THREADS (default
# "1 2") the thread counts it runs at; JAVA_OPTS (e.g. -Djavelin.cpu.threads=1) goes to the JVM.
# BENCH_OVERRIDES adds recipe overrides (key=value ...) to the Java run. BACKEND_CLASSES (default the class folders of tpu-backend and its layers tpu-backend/*/) goes first on the classpath, so an A/B
# can point it at another build; BASE_CP (default: recipes/target/classes + the launcher's
# classpath file) can point at a frozen copy while other modules are being rebuilt.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
model="${1:?usage: bench/cpu-grpo.sh <sft-model-dir> [steps] [torch-init.pt]}"
steps="${2:-24}"
init="${3:-}"
out="$(mktemp -d /tmp/cpu-grpo.XXXXXX)"
if [[ -z "${BASE_CP:-}" ]]; then
  [[ -f recipes/target/javelin.classpath ]] || { echo "build the launcher first: ./javelin --help" >&2; exit 1; }
  BASE_CP="recipes/target/classes:$(cat recipes/target/javelin.classpath)"
fi
cp="${BACKEND_CLASSES:-$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)}:$BASE_CP"
opens=("@recipes/src/main/resources/dev/javelin/recipes/add-opens.args")
# shellcheck disable=SC2086,SC2016  # word-split option variables; the single-quoted %s is a java.util.logging format
java "${opens[@]}" -Xmx8g ${JAVA_OPTS:-} -Djava.util.logging.SimpleFormatter.format='%4$s %3$s: %5$s%6$s%n' \
  -cp "$cp" dev.javelin.recipes.cli.Main run recipes/arith-grpo.yaml \
  actor_rollout_ref.model.path="$model" trainer.default_local_dir="$out" \
  trainer.total_training_steps="$steps" trainer.test_freq=100000 trainer.save_freq=100000 ${BENCH_OVERRIDES:-} \
  > "$out/log.txt" 2>&1 || { tail -30 "$out/log.txt"; exit 1; }
metrics="$(find "$out" -name metrics.jsonl | head -1)"
echo "java ($metrics), medians over steps $((${BENCH_WARMUP:-4} + 1))..$steps:"
for k in gen reward adv old_log_prob update_actor update_weights step; do
  jq -r "select(.step > ${BENCH_WARMUP:-4}) | .\"timing_s/$k\" // empty" "$metrics" | sort -g |
    awk -v k="$k" '{a[NR]=$1} END {if (NR) printf "  %-15s %7.1f ms (min %.1f, n=%d)\n", k, 1000*a[int((NR+1)/2)], 1000*a[1], NR}'
done
if [[ -n "$init" ]]; then
  for t in ${TORCH_THREADS:-1 2}; do
    echo "torch, $t thread(s):"
    "${PYTHON:-.venv/bin/python}" tools/torch_grpo_ref.py bench --init "$init" --threads "$t" --steps 20 | tail -1
  done
fi
