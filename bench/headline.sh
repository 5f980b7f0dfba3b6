#!/usr/bin/env bash
# Reruns every headline row of docs/PERFORMANCE.md side by side: for each row the Java run, then the
# PyTorch run, back to back, both at THREADS threads; medians of ITERS timed iterations after one
# warm-up iteration (the JIT and allocators), kernel profiling off. Prints the load average before
# and after each row and a markdown table with the date, ready for docs/PERFORMANCE.md.
#   rows: tiny / small train step (64 x 128 tokens), tiny / small batched decode (64 sequences),
#         SmolLM2-135M's architecture (random weights): decode 32 x 128 and a train step of 16 x 256,
#         and the arith-grpo loop step at 1 and at 2 threads (from the SFT starts of both sides,
#         made once when absent: ./javelin sft recipes/arith-sft.yaml, tools/torch_grpo_ref.py sft).
# Usage: bench/headline.sh [<sft-model-dir> <torch-init.pt>]   (defaults: checkpoints/javelin/arith-sft/model,
#        target/arith-sft.pt)
# Env:   PYTHON (default .venv/bin/python, needs torch + transformers: tools/requirements/hf.txt),
#        THREADS (default 2), ITERS (default 5), REAL_ITERS (default 3, the SmolLM2 rows), SMALL_REMAT (default blocks), JAVA_HEAP (default 8g),
#        MVN_FLAGS (extra Maven flags, e.g. -o), ROWS (a regex: only the rows whose label matches)
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
./mvnw -B -q "${mvn_flags[@]}" -pl tpu-backend dependency:build-classpath -Dmdep.excludeGroupIds=dev.javelin -Dmdep.includeScope=test \
  -Dmdep.outputFile="$cpfile" >/dev/null
cp="tpu-backend/target/test-classes:$(printf '%s:' tpu-backend/target/classes tpu-backend/*/target/classes)$(cat "$cpfile")"
load() { cut -d' ' -f1-3 /proc/loadavg; }
want() { [[ -z "${ROWS:-}" || "$1" =~ $ROWS ]]; } # ROWS: a regex of the row labels to run
rows=()
row() { # <label> <config> <task> <remat> [--batch B --seq T --prompt P --new N --iters I, both sides]
  local before java torch after j t
  local extra=("${@:5}")
  want "$1" || return 0
  before="$(load)"
  java="$(java -Xmx"$heap" -Djavelin.cpu.threads="$threads" -Djavelin.remat="$4" \
    -Djavelin.bench.profile=false -cp "$cp" dev.javelin.backend.bench.ModelBenchmark \
    --device cpu --config "$2" --task "$3" --iters "$iters" "${extra[@]}" 2>&1 | grep '^{' || echo '{}')"
  torch="$("$py" tools/torch_bench.py --config "$2" --task "$3" --iters "$iters" --threads "$threads" "${extra[@]}" \
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
grpo() { # <sft> <init>: the loop step, Java cpu vs the PyTorch reference loop, at 1 and at 2 threads
  local before after out j t
  for n in 1 2; do
    before="$(load)"
    out="$(JAVA_OPTS="-Djavelin.cpu.threads=$n" TORCH_THREADS="$n" bench/cpu-grpo.sh "$1" 30 "$2" 2>&1)"
    after="$(load)"
    echo "-- arith-grpo loop, $n thread(s): load $before -> $after" >&2
    echo "$out" | tail -9 >&2
    j="$(awk '$1 == "step" { print $2; exit }' <<<"$out")"
    t="$(grep '^{' <<<"$out" | tail -1 | jq -r '.step_s // empty' | awk '{ if ($1 > 0) printf "%.1f", 1000 * $1 }')"
    rows+=("| \`arith-grpo\` loop step vs the PyTorch reference loop, $n thread(s) (lower is better) | \`bench/headline.sh\` | ${j:-failed} ms | ${t:-failed} ms | $(ratio "${j:-0}" "${t:-0}") | $before → $after |")
  done
}
start="$(date -u '+%Y-%m-%d %H:%M')"
row "tiny (5M) train step, 64 × 128 tokens" tiny train elementwise
row "tiny batched decode, 64 sequences" tiny decode elementwise
row "small (51M) batched decode" small decode elementwise
row "small (51M) train step, 64 × 128 tokens, \`Remat.${small_remat^^}\`" small train "$small_remat"
real_iters="${REAL_ITERS:-3}"
row "SmolLM2-135M architecture batched decode, 32 sequences × 128 tokens" smollm2 decode elementwise \
  --batch 32 --prompt 16 --new 128 --iters "$real_iters"
row "SmolLM2-135M architecture train step, 16 × 256 tokens, \`Remat.BLOCKS\`" smollm2 train blocks \
  --batch 16 --seq 256 --iters "$real_iters"
if want "arith-grpo"; then
  sft="${1:-checkpoints/javelin/arith-sft/model}"
  init="${2:-target/arith-sft.pt}"
  if [[ ! -d "$sft" ]]; then
    echo "-- making the Java SFT start: ./javelin sft recipes/arith-sft.yaml" >&2
    ./javelin sft recipes/arith-sft.yaml > target/headline-sft.log 2>&1 || { tail -5 target/headline-sft.log >&2; exit 1; }
  fi
  if [[ ! -f "$init" ]]; then
    echo "-- making the PyTorch SFT start: tools/torch_grpo_ref.py sft --out $init" >&2
    mkdir -p "$(dirname "$init")"
    "$py" tools/torch_grpo_ref.py sft --threads "$threads" --out "$init" > target/headline-torch-sft.log 2>&1 ||
      { tail -5 target/headline-torch-sft.log >&2; exit 1; }
  fi
  [[ -f recipes/target/javelin.classpath ]] || ./javelin --help > /dev/null
  grpo "$sft" "$init"
fi
echo
echo "Rerun $start–$(date -u '+%H:%M') UTC, $threads threads each, medians of $iters iterations after one warm-up, PyTorch $("$py" -c 'import torch; print(torch.__version__)') at its default settings:"
echo
echo "| figure | command | Javelin \`cpu\` | PyTorch CPU | ratio | load average before → after |"
echo "| --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
