#!/usr/bin/env bash
# Fuzzes every parser of untrusted bytes (the *FuzzTest classes: safetensors, weight snapshots, the
# sampler and trainer wire codecs, recipes + overrides, JSONL rows, rewards on model output) for a
# longer budget than the build's 20 s each. Findings are written next to each target's committed
# corpus (src/test/resources/<package>/<Class>Inputs/) and fail the run.
# Usage: bench/fuzz.sh [duration per target, e.g. 10m]   (default 10m)
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10m}"
uptime
./mvnw -B verify -Djavelin.skipTestSetup=true -Djavelin.fuzz.duration="$duration" \
  -Dtest='*FuzzTest' -Dsurefire.failIfNoSpecifiedTests=false -Dspotless.check.skip=true \
  -pl tpu-backend,weight-sync,sampler,trainer,datasets,rewards,recipes 2>&1 |
  grep -E 'Done [0-9]+ runs|FuzzTest|Tests run|FAIL|ERROR' || true
uptime
