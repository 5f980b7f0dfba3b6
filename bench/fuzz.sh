#!/usr/bin/env bash
# Fuzzes every parser of untrusted bytes (the 13 *FuzzTest classes: safetensors, the sharded index,
# GGUF, weight snapshots, the sampler and trainer wire codecs, checkpoint metadata, recipes +
# overrides, JSONL rows, VeRL parquet, tokenizer files, chat templates, rewards on model output),
# each target in its own JVM, for the given wall time. Findings are written next to each target's
# committed corpus (src/test/resources/<package>/<Class>Inputs/) and fail the run.
# Usage: bench/fuzz.sh [duration, e.g. 90s, 10m, 1h]   (default 10m)
# Jazzer takes each round's length from the targets' @FuzzTest(maxDuration) (12 s each), so the
# script runs rounds until the duration is spent; each round starts from the corpus the previous
# ones grew. Exits 1 when a round fails (a finding, a crash) or fewer than 13 targets ran.
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10m}"
targets=13
case "$duration" in
  *h) secs=$(( ${duration%h} * 3600 )) ;;
  *m) secs=$(( ${duration%m} * 60 )) ;;
  *s) secs=${duration%s} ;;
  *[!0-9]*|'') echo "fuzz.sh: duration '$duration' is not N, Ns, Nm or Nh" >&2; exit 2 ;;
  *) secs=$duration ;;
esac
log="$(mktemp -t javelin-fuzz.XXXXXX.log)"
uptime
end=$(( SECONDS + secs ))
round=0
while :; do
  round=$(( round + 1 ))
  # Only the fuzz execution. grpo is built too: trainer and recipes depend on it.
  rc=0
  ./mvnw -B test-compile surefire:test@fuzz -Djavelin.skipTestSetup=true \
    -Djavelin.fuzz.duration="${secs}s" -Dspotless.check.skip=true \
    -pl tpu-backend,grpo,weight-sync,sampler,trainer,datasets,rewards,recipes -am >"$log" 2>&1 || rc=$?
  grep -E 'Done [0-9]+ runs|Tests run:.*FuzzTest|FAIL|ERROR\]' "$log" || true
  ran="$(grep -cE 'Tests run:.* in dev\.javelin\..*FuzzTest' "$log" || true)"
  if [ "$rc" -ne 0 ]; then
    echo "fuzz.sh: round $round failed (exit $rc); full log: $log" >&2
    exit 1
  fi
  if [ "$ran" -ne "$targets" ]; then
    echo "fuzz.sh: round $round ran $ran of $targets targets; full log: $log" >&2
    exit 1
  fi
  echo "fuzz.sh: round $round: $ran targets passed"
  [ "$SECONDS" -ge "$end" ] && break
done
echo "fuzz.sh: $round round(s) in ${SECONDS}s, no findings"
uptime
