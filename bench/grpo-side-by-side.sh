#!/usr/bin/env bash
# The arith-grpo step side by side on this machine: Java on `cpu` and on `xla:cpu`, the PyTorch
# reference with 1 and 2 threads, and optionally the same Java runs from another checkout (a
# baseline commit, built with ./javelin --help), all back to back. Medians of steps 5..STEPS.
# Usage: bench/grpo-side-by-side.sh <sft-model-dir> <torch-init.pt> [baseline-checkout] [steps=30]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sft="${1:?usage: bench/grpo-side-by-side.sh <sft-model-dir> <torch-init.pt> [baseline-checkout] [steps]}"
init="${2:?torch init checkpoint (tools/torch_grpo_ref.py sft --out ...)}"
base="${3:-}"
steps="${4:-30}"
med() { jq -r "select(.step > 4) | .\"timing_s/$2\" // empty" "$1" | sort -g |
  awk '{a[NR]=$1} END {if (NR) printf "%.1f", 1000*a[int((NR+1)/2)]}'; }
xla() { # <checkout> <label>
  local out m
  out="$(mktemp -d /tmp/grpo-sbs.XXXXXX)"
  (cd "$1" && ./javelin run recipes/arith-grpo.yaml --device xla:cpu actor_rollout_ref.model.path="$sft" \
    trainer.default_local_dir="$out" trainer.total_training_steps="$steps" trainer.test_freq=100000 \
    trainer.save_freq=100000 > "$out/log.txt" 2>&1) || { tail -5 "$out/log.txt"; return; }
  m="$(find "$out" -name metrics.jsonl | head -1)"
  echo "$2 xla:cpu: gen $(med "$m" gen) old_log_prob $(med "$m" old_log_prob) update_actor $(med "$m" update_actor) step $(med "$m" step) ms"
}
echo "== $(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -n "$base" ]]; then echo "-- baseline cpu ($base)"; (cd "$base" && bench/cpu-grpo.sh "$sft" "$steps" | tail -7); fi
echo "-- cpu, then PyTorch"; "$root/bench/cpu-grpo.sh" "$sft" "$steps" "$init" | tail -11
xla "$root" this
if [[ -n "$base" ]]; then xla "$base" baseline; fi
echo "== end $(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
