#!/usr/bin/env bash
# Weight-sync benchmark: publish + load vs a plain memory copy, 1/2/4 samplers, f32 and bf16 transfer.
# Usage: bench/weight-sync.sh [millionParams...]   (default: 5 50; 500 needs ~20 GB of RAM)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q -pl weight-sync test-compile
cp="weight-sync/target/classes:weight-sync/target/test-classes"
exec java -Xmx18g -XX:MaxDirectMemorySize=8g -cp "$cp" dev.javelin.weightsync.bench.WeightSyncBench "$@"
