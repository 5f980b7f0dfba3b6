#!/usr/bin/env bash
# Autodiff benchmark: the VJP split of the policy's log-prob program under each rematerialisation
# policy (Remat.NONE / Remat.ELEMENTWISE): graph build time, forward->backward residual count and
# MB at batch 64 x 128, and forward + backward wall time on a device.
# Usage: bench/autodiff.sh [tiny|small] [device=cpu] [runBatch=16] [runLength=128] [reps=5]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl tpu-backend -am install -DskipTests
cpfile=tpu-backend/target/bench-classpath.txt
./mvnw -B -q -pl tpu-backend dependency:build-classpath -Dmdep.excludeGroupIds=dev.javelin -Dmdep.outputFile="$PWD/$cpfile" >/dev/null
cp="tpu-backend/target/test-classes:$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)$(cat "$cpfile")"
java -Xmx16g -cp "$cp" dev.javelin.backend.graph.bench.AutodiffBench "$@"
