#!/usr/bin/env bash
# The hot kernels of an arith-grpo trainer micro-batch on the cpu device, 1 and 2 workers
# (dev.javelin.backend.cpu.bench.ArithKernelBench). Usage: bench/cpu-kernels.sh [reps=200]
set -euo pipefail
cd "$(dirname "$0")/.."
# one reactor run: the backend's layers (tpu-backend/*/) resolve from it; tpu-backend writes last
# shellcheck disable=SC2086  # the *_OPTS / *_EXTRA / *_OVERRIDES variables hold several words on purpose
./mvnw -B -q -pl tpu-backend -am test-compile dependency:build-classpath -Dspotless.check.skip=true \
  -Dmdep.outputFile="$PWD/tpu-backend/target/bench.classpath" -Dmdep.includeScope=test -Dmdep.excludeGroupIds=dev.javelin ${MVN_EXTRA:-}
cp="tpu-backend/target/test-classes:$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)$(cat tpu-backend/target/bench.classpath)"
# shellcheck disable=SC2086  # the *_OPTS / *_EXTRA / *_OVERRIDES variables hold several words on purpose
exec java -Xmx4g ${JAVA_OPTS:-} -cp "$cp" dev.javelin.backend.cpu.bench.ArithKernelBench "$@"
