#!/usr/bin/env bash
# cpu device benchmark: sgemm through our Program path vs raw OpenBLAS (off-heap and float[]),
# fused elementwise throughput, and where a tiny-model train step spends its time.
# Usage: bench/cpu-device.sh [all|gemm|elementwise|train] [batch] [tokens]   (default: all 8 128)
set -euo pipefail
cd "$(dirname "$0")/.."
# one reactor run: the backend's layers (tpu-backend/*/) resolve from it; tpu-backend writes last
./mvnw -B -q -pl tpu-backend -am test-compile dependency:build-classpath -Dmdep.excludeGroupIds=dev.javelin \
  -Dmdep.outputFile="$PWD/tpu-backend/target/bench.classpath" -Dmdep.includeScope=test
cp="tpu-backend/target/test-classes:$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)$(cat tpu-backend/target/bench.classpath)"
exec java -Xmx8g -cp "$cp" dev.javelin.backend.cpu.bench.CpuBench "$@"
