#!/usr/bin/env bash
# Reruns every headline row of docs/PERFORMANCE.md side by side: for each row the Java run, then the
# PyTorch run, back to back, both at THREADS threads; medians of ITERS timed iterations after one
# warm-up iteration (the JIT and allocators), kernel profiling off. Prints the load average before
# and after each row and a markdown table with the date, ready for docs/PERFORMANCE.md.
#   rows: tiny / small train step (64 x 128 tokens), tiny / small batched decode (64 sequences),
#         and, given an SFT model and its PyTorch init, the arith-grpo loop step.
# Usage: bench/headline.sh [<sft-model-dir> <torch-init.pt>]
# Env:   PYTHON (default .venv/bin/python, needs torch + transformers: tools/requirements/hf.txt),
#        THREADS (default 2), ITERS (default 5), SMALL_REMAT (default blocks), JAVA_HEAP (default 8g),
#        MVN_FLAGS (extra Maven flags, e.g. -o)
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
threads="${THREADS:-2}"
iters="${ITERS:-5}"
small_remat="${SMALL_REMAT:-blocks}"
heap="${JAVA_HEAP:-8g}"
if ! "$py" -c 'import torch, transformers' 2>/dev/null; then
  echo "headline.sh: $py has no torch + transformers; run tools/setup/venv.sh tools/requirements/hf.txt" \
    "or set PYTHON=/path/to/python" >&2
  exit 2
fi
read -ra mvn_flags <<< "${MVN_FLAGS:-}" # extra Maven flags, e.g. -o
./mvnw -B -q -pl tpu-backend -am install -DskipTests "${mvn_flags[@]}"
cpfile="$PWD/tpu-backend/target/bench-classpath.txt"
./mvnw -B -q "${mvn_flags[@]}" -pl tpu-backend dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$cpfile" >/dev/null
cp="tpu-backend/target/classes:tpu-backend/target/test-classes:$(cat "$cpfile")"
load() { cut -d' ' -f1-3 /proc/loadavg; }
rows=()
row() { # <label> <config> <task> <remat>
  local before java torch after j t
  before="$(load)"
  java="$(java -Xmx"$heap" -Djavelin.cpu.threads="$threads" -Djavelin.remat="$4" \
    -Djavelin.bench.profile=false -cp "$cp" dev.javelin.backend.bench.ModelBenchmark \
    --device cpu --config "$2" --task "$3" --iters "$iters" 2>&1 | grep '^{' || echo '{}')"
  torch="$("$py" tools/torch_bench.py --config "$2" --task "$3" --iters "$iters" --threads "$threads" \
    | grep '^{' || echo '{}')"
  after="$(load)"
  j="$(jq -r '.tokens_per_s // "failed"' <<<"$java")"
  t="$(jq -r '.tokens_per_s // "failed"' <<<"$torch")"
  echo "-- $1: load $before -> $after" >&2
  echo "   java  $java" >&2
  echo "   torch $torch" >&2
  rows+=("| $1 | \`bench/headline.sh\` | $j tok/s | $t tok/s | $(ratio "$j" "$t") | $before → $after |")
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f×", a / b; else print "—" }'; }
grpo() { # <sft> <init>: Java cpu vs the PyTorch reference loop at equal threads
  local before after out
  before="$(load)"
  out="$(bench/cpu-grpo.sh "$1" 30 "$2" 2>&1 | tail -11)"
  after="$(load)"
  echo "-- arith-grpo loop: load $before -> $after" >&2
  echo "$out" >&2
  rows+=("| \`arith-grpo\` loop step vs the PyTorch reference loop | \`bench/headline.sh <sft> <init>\` | see log above | | | $before → $after |")
}
start="$(date -u '+%Y-%m-%d %H:%M')"
row "tiny (5M) train step, 64 × 128 tokens" tiny train elementwise
row "tiny batched decode, 64 sequences" tiny decode elementwise
row "small (51M) batched decode" small decode elementwise
row "small (51M) train step, 64 × 128 tokens, \`Remat.${small_remat^^}\`" small train "$small_remat"
if [[ $# -ge 2 ]]; then grpo "$1" "$2"; else echo "-- arith-grpo loop: skipped (give <sft-model-dir> <torch-init.pt>)" >&2; fi
echo
echo "Rerun $start–$(date -u '+%H:%M') UTC, $threads threads each, medians of $iters iterations after one warm-up, PyTorch $("$py" -c 'import torch; print(torch.__version__)') at its default settings:"
echo
echo "| figure | command | Javelin \`cpu\` | PyTorch CPU | ratio | load average before → after |"
echo "| --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
