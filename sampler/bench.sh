#!/usr/bin/env bash
# Sampler tokens/s on the CPU device (arith-sized model). Usage: sampler/bench.sh [warmup] [iters]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -o -pl sampler -am test-compile -Dexec.skip=true -Dspotless.check.skip=true
./mvnw -B -q -o -pl tpu-backend dependency:build-classpath -Dmdep.outputFile=target/sampler-bench.cp \
  -Dmdep.includeScope=runtime -Dmdep.excludeGroupIds=dev.javelin >/dev/null
# the backend is tpu-backend plus its layers in tpu-backend/*/
cp="sampler/target/classes:sampler/target/test-classes"
cp="$cp:$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)"
cp="${cp}weight-sync/target/classes:$(cat tpu-backend/target/sampler-bench.cp)"
exec java -Xmx4g -cp "$cp" dev.javelin.sampler.bench.SamplerBench "$@"
