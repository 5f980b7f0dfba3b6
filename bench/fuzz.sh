#!/usr/bin/env bash
# Fuzzes every parser of untrusted bytes (the *FuzzTest classes: safetensors, the sharded index, GGUF,
# weight snapshots, the sampler and trainer wire codecs, checkpoint metadata, recipes + overrides,
# JSONL rows, VeRL parquet, tokenizer files, chat templates, rewards on model output) for a longer
# budget than the build's 12 s each, each target in its own JVM. Findings are written next to each
# target's committed corpus (src/test/resources/<package>/<Class>Inputs/) and fail the run.
# Usage: bench/fuzz.sh [duration per target, e.g. 10m]   (default 10m)
# Jazzer 0.24 takes the duration from each target's @FuzzTest(maxDuration) (12 s) and ignores the
# jazzer.max_duration property this passes on; raise maxDuration locally for a longer run.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10m}"
uptime
# Only the fuzz execution: the other test executions (the real-model ones) are not run.
./mvnw -B test-compile surefire:test@fuzz -Djavelin.skipTestSetup=true \
  -Djavelin.fuzz.duration="$duration" -Dspotless.check.skip=true \
  -pl tpu-backend,weight-sync,sampler,trainer,datasets,rewards,recipes 2>&1 |
  grep -E 'Done [0-9]+ runs|FuzzTest|Tests run|FAIL|ERROR' || true
uptime
