#!/usr/bin/env bash
# arith-grpo step time and reward, sync vs one_step_off, Ray local mode vs trainer.ray=off, from one
# SFT checkpoint, back to back (docs/perf/grpo-loop.md, "Overlap").
#   bench/grpo-loop-overlap.sh <sft model dir> [steps=100] [out dir=/tmp/javelin-overlap] [rounds=1]
#       [extra key=value overrides...]
# With rounds > 1 the four modes are alternated round by round (fairer on a machine whose load moves).
# Prints, per mode, the median timing_s/* over steps 5..N and the held-out accuracy every 25 steps
# (plain grep/awk over metrics.jsonl).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SFT="${1:?usage: $0 <sft model dir, e.g. checkpoints/javelin/arith-sft/model> [steps] [out dir]}"
STEPS="${2:-100}"
OUT="${3:-/tmp/javelin-overlap}"
ROUNDS="${4:-1}"
EXTRA=("${@:5}")
[[ -f "$SFT/model.safetensors" ]] || { echo "no model.safetensors under $SFT" >&2; exit 2; }
SFT="$(cd "$SFT" && pwd)"
mkdir -p "$OUT"
# median of metric $2 over the lines of $1 with step >= 5
median() {
  grep -E '^\{"step":([5-9]|[1-9][0-9]+),' "$1" | grep -oE "\"$2\":[-0-9.eE]+" | cut -d: -f2 | sort -g |
    awk '{v[NR]=$1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'
}
summarise() {
  local line="   medians (steps 5..N):"
  for k in timing_s/step timing_s/gen timing_s/wait_gen timing_s/old_log_prob timing_s/update_actor \
      trainer/idle_ratio rollout/idle_ratio rollout/staleness/mean; do
    line+=" $k=$(median "$1" "$k")"
  done
  echo "$line"
  local accs
  accs=$(grep -oE '^\{"step":[0-9]+|"val/acc/mean@1":[0-9.eE-]+' "$1" |
    paste -sd' ' | grep -oE '"step":[0-9]+ "val/acc/mean@1":[0-9.eE-]+' | sed -E 's/"step":([0-9]+) "val\/acc\/mean@1":/\1:/')
  echo "   held-out accuracy (step:acc): ${accs//$'\n'/ }"
}

for round in $(seq 1 "$ROUNDS"); do
for mode in "local sync" "local one_step_off" "off sync" "off one_step_off"; do
  read -r ray rollout <<< "$mode"
  dir="$OUT/r$round-$ray-$rollout"
  rm -rf "$dir"
  echo "== round $round: trainer.ray=$ray trainer.rollout_mode=$rollout (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  "$ROOT/javelin" run recipes/arith-grpo.yaml "actor_rollout_ref.model.path=$SFT" \
    actor_rollout_ref.model.warmup_recipe= "trainer.total_training_steps=$STEPS" \
    trainer.test_freq=25 trainer.save_freq=-1 "trainer.ray=$ray" "trainer.rollout_mode=$rollout" \
    "trainer.default_local_dir=$dir" ${EXTRA[@]+"${EXTRA[@]}"} > "$dir.log" 2>&1
  summarise "$dir/metrics.jsonl"
done
done
