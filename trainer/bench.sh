#!/usr/bin/env bash
# Trainer time per GRPO step on the arith-grpo shape (see TrainerBench's javadoc):
# old log-probs, the PPO update and an SFT step, medians over timed steps.
# Usage: trainer/bench.sh [steps] [microBatch] [skipOld]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cpfile="$root/trainer/target/bench-classpath.txt"
# shellcheck disable=SC2086  # the *_OPTS / *_EXTRA / *_OVERRIDES variables hold several words on purpose
./mvnw -B -q -pl trainer -am test-compile -Dspotless.check.skip=true ${MVN_EXTRA:-}
# shellcheck disable=SC2086  # the *_OPTS / *_EXTRA / *_OVERRIDES variables hold several words on purpose
./mvnw -B -q -pl trainer dependency:build-classpath -Dmdep.excludeGroupIds=dev.javelin \
  -Dmdep.outputFile="$cpfile" ${MVN_EXTRA:-} >/dev/null
# this checkout's modules, not whatever an earlier install left in the local repository
# the backend is tpu-backend plus its layers in tpu-backend/*/
mods="$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)grpo/target/classes"
mods="$mods:weight-sync/target/classes"
cp="trainer/target/classes:trainer/target/test-classes:$mods:$(cat "$cpfile")"
java -cp "$cp" dev.javelin.trainer.bench.TrainerBench "${1:-30}" "${2:-256}" "${3:-false}"
