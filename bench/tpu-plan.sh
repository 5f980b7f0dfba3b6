#!/usr/bin/env bash
# TPU plans at real sizes, compiled here with libtpu (no TPU): `javelin plan` beside the plain JAX
# reference step (tools/tpu_reference_step.py) of the same shapes, one row at a time, the machine's
# load around each. Real-size compiles take minutes each on a small machine: pick rows.
# Usage: bench/tpu-plan.sh [row ...]   rows (default: qwen-v5e):
#   qwen-v5e     Qwen2.5-0.5B shape, layers scanned, GRPO micro-batch 64 x 1024 bf16, trainer
#                fsdp=8 (v5e-16: the trainer's 8 chips plus a sampler's), JAX with and without
#                per-layer remat
#   qwen-v5e-blockwise  the same Javelin plan with blockwise attention (-Djavelin.attention.block=512)
#   qwen-v5e-keep, qwen-v5e-blockwise-keep  the same two plans with the LM head's logits kept for
#                the backward (-Djavelin.head.logits=keep) instead of recomputed
#   llama-v6e    Llama-3-8B shape, layers scanned, 8 x 2048, fsdp=8 on v6e-16 (trainer on 8 chips)
#   llama-v5p    Llama-3-8B shape, layers scanned, 8 x 2048, fsdp=4 on v5p-16 (v5p-8 is 4 chips:
#                trainer on 4)
#   logprobs16k  Qwen2.5-0.5B shape, log-probs and a train step at 16k tokens on one v6e chip
#                (the trainer on one chip of v6e-8, a one-row sampler on another), dense attention
#   logprobs16k-blockwise  the same with blockwise attention (-Djavelin.attention.block=512)
#   flops        flops per chip of the 0.5B GRPO train step (64 x 1024, fsdp=8, v5e-8), layers
#                scanned, the head's logits recomputed, kept, and kept with blockwise attention
#                (512): per-chip temporaries, and the matrix products the text runs
#                (tools/stablehlo_dot_flops.py, loop bodies times their trips) beside the JAX
#                step's (XLA's cost analysis counts a loop body once and undercounts partitioned
#                products)
#   depth-javelin  Javelin's scanned train step (fwd + bwd) for the same shape at 2 and 32 layers:
#                compile seconds and temporaries per chip
#   depth        compile time of the train step at 2 vs 24 layers (JAX unrolled vs scanned)
#   qwen3-8b-v6e   Qwen3-8B shape, layers scanned, 8 x 1024 bf16, trainer fsdp=8 on v6e-16 (the
#                  trainer's 8 chips, a v6e-8's worth, plus 1 sampler x tp=8)
#   qwen3-8b-v5e   the same on v5e-16 (16 GiB chips)
#   qwen3-8b-v5p   Qwen3-8B shape, scanned, 8 x 1024, fsdp=4 on v5p-16 (v5p-8 is 4 chips: trainer
#                  on 4, 1 sampler x tp=4)
#   gemma3-4b-v6e  Gemma-3-4B text shape, scanned (sliding-window and global blocks in one loop),
#                  8 x 1024, trainer fsdp=4 and 1 sampler x tp=4 on v6e-8
#   qwen3-30b-a3b-v5p  Qwen3-30B-A3B shape (48 Mixture-of-Experts blocks, 128 experts, top 8),
#                  scanned, 8 x 1024 bf16, trainer fsdp=8 on v5p-32 (8 of its 16 chips: 16 bytes
#                  of weights, gradients and AdamW moments per parameter over 8 chips), 1 sampler
#                  x tp=4 (its 4 key/value heads) on 4 more (tensor parallelism leaves experts
#                  whole: v6e's 32 GiB chips cannot hold a sampler's copy of them), 32 rows
#                  per sampler (every expert runs on every token: a 256-row prefill needs 178 GB
#                  of temporaries)
# Every program compiles over the topology's first chips; a tp=4 sampler on v6e-16 failed in libtpu
# (device id 4 outside the replica group, docs/PERFORMANCE.md), hence tp=8 there.
# Needs .venv with libtpu (tools/setup/venv.sh tools/requirements/libtpu.txt) and a build.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(qwen-v5e)
read -ra mvn_flags <<< "${MVN_FLAGS:-}" # extra Maven flags, e.g. -o
tools/setup/venv.sh tools/requirements/libtpu.txt
cpfile="$PWD/recipes/target/tpu-plan-classpath.txt"
# one reactor run: the sibling modules resolve from it (a fresh ~/.m2 holds none of them); every
# module writes $cpfile in turn, recipes (the last) last
./mvnw -B -q "${mvn_flags[@]}" -pl recipes -am compile dependency:build-classpath -DskipTests \
  -Dspotless.check.skip=true -Dmdep.excludeGroupIds=dev.javelin -Dmdep.outputFile="$cpfile"
tools/setup/pjrt-shim.sh tpu-backend/target/classes
cp=""
for m in tpu-backend grpo rewards datasets weight-sync sampler trainer recipes; do
  cp="$cp$m/target/classes:"
done
cp="$cp$(cat "$cpfile")"
py=.venv/bin/python
qwen=bench/models/qwen2.5-0.5b
llama=bench/models/llama-3-8b
qwen3=bench/models/qwen3-8b
gemma3=bench/models/gemma-3-4b
qwen3moe=bench/models/qwen3-30b-a3b
layers=unrolled # -Djavelin.layers of the plan JVM; the real-size rows of deep models scan
block=0         # -Djavelin.attention.block: keys per attention block, 0 for dense attention
head=recompute  # -Djavelin.head.logits: recompute or keep the LM head's logits for the backward

plan() { # plan <topology> <key=value ...>
  local topo=$1
  shift
  echo "== javelin plan --topology $topo $* (-Djavelin.layers=$layers -Djavelin.attention.block=$block -Djavelin.head.logits=$head)"
  date -u
  cat /proc/loadavg
  java -Xmx12g -Djavelin.layers="$layers" -Djavelin.attention.block="$block" \
    -Djavelin.head.logits="$head" @recipes/src/main/resources/dev/javelin/recipes/add-opens.args \
    -Djavelin.root="$PWD" -cp "$cp" dev.javelin.recipes.cli.Main plan recipes/gsm8k-grpo.yaml \
    actor_rollout_ref.model.enable_gradient_checkpointing=true "$@" --topology "$topo" \
    2> >(grep -v '^WARNING\|^E0000\|^===\|learning/\|Failed to find' >&2) || echo "exit $?"
}

jax() { # jax <args of tools/tpu_reference_step.py>
  echo "== tools/tpu_reference_step.py $*"
  date -u
  cat /proc/loadavg
  "$py" tools/tpu_reference_step.py "$@" 2>/dev/null || echo "exit $?"
}

for row in "${rows[@]}"; do
  case "$row" in
    qwen-v5e | qwen-v5e-blockwise | qwen-v5e-keep | qwen-v5e-blockwise-keep)
      case "$row" in *blockwise*) block=512 ;; esac
      case "$row" in *keep) head=keep ;; esac
      layers=scanned plan v5e-16 actor_rollout_ref.model.path=$qwen actor_rollout_ref.model.model_type=qwen2 \
        trainer.n_gpus_per_node=8 trainer.samplers=1 \
        actor_rollout_ref.rollout.tensor_model_parallel_size=2 \
        actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=64 \
        data.max_prompt_length=512 data.max_response_length=512
      block=0
      head=recompute
      [ "$row" = qwen-v5e ] || continue # the JAX side is the dense row's
      jax --config $qwen/config.json --topology v5e-8 --batch 64 --seq 1024 --fsdp 8 --remat
      jax --config $qwen/config.json --topology v5e-8 --batch 64 --seq 1024 --fsdp 8
      ;;
    llama-v6e)
      layers=scanned plan v6e-16 actor_rollout_ref.model.path=$llama trainer.n_gpus_per_node=8 \
        trainer.samplers=2 actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
        actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
        data.max_prompt_length=512 data.max_response_length=1536
      jax --config $llama/config.json --topology v6e-8 --batch 8 --seq 2048 --fsdp 8 --remat
      ;;
    llama-v5p)
      layers=scanned plan v5p-16 actor_rollout_ref.model.path=$llama trainer.n_gpus_per_node=4 \
        trainer.samplers=1 actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
        actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
        data.max_prompt_length=512 data.max_response_length=1536
      jax --config $llama/config.json --topology v5p-8 --batch 8 --seq 2048 --fsdp 4 --remat
      ;;
    logprobs16k | logprobs16k-blockwise)
      [ "$row" = logprobs16k-blockwise ] && block=512
      layers=scanned plan v6e-8 actor_rollout_ref.model.path=$qwen actor_rollout_ref.model.model_type=qwen2 \
        trainer.n_gpus_per_node=1 trainer.samplers=1 \
        actor_rollout_ref.rollout.tensor_model_parallel_size=1 actor_rollout_ref.rollout.max_num_seqs=1 \
        actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \
        actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \
        data.max_prompt_length=512 data.max_response_length=15872
      block=0
      [ "$row" = logprobs16k-blockwise ] && continue # the JAX side is the dense row's
      jax --config $qwen/config.json --topology v6e-1 --batch 1 --seq 16384 --program logprobs
      jax --config $qwen/config.json --topology v6e-1 --batch 1 --seq 16384 --remat
      ;;
    flops | depth-javelin)
      ./mvnw -B -q "${mvn_flags[@]}" -pl tpu-backend test-compile -Dspotless.check.skip=true
      runs=("24 recompute 0" "24 keep 0" "24 keep 512") # layers, head logits, attention block
      [ "$row" = depth-javelin ] && runs=("2 recompute 0" "32 recompute 0")
      for run in "${runs[@]}"; do
        read -r n head block <<< "$run"
        echo "== ScanCompileBench $n 64 1024 (scanned, -Djavelin.head.logits=$head -Djavelin.attention.block=$block)"
        date -u
        cat /proc/loadavg
        dump=target/tpu-plan/$row-$n-$head-$block
        rm -rf "$dump"
        mkdir -p "$dump"
        java -Xmx12g -Djavelin.layers=scanned -Djavelin.head.logits="$head" \
          -Djavelin.attention.block="$block" -Dbench.dump="$dump" \
          -cp "tpu-backend/target/test-classes:$cp" \
          dev.javelin.backend.xla.ScanCompileBench "$n" 64 1024 $qwen/config.json \
          2> >(grep -v '^WARNING\|^E0000\|^===\|learning/\|Failed to find' >&2) || echo "exit $?"
        # the products the text asks for: XLA's cost analysis undercounts partitioned programs
        [ "$row" = flops ] && "$py" tools/stablehlo_dot_flops.py --partitions 8 "$dump"/*.mlir
      done
      head=recompute
      block=0
      if [ "$row" = flops ]; then
        "$py" tools/tpu_reference_step.py --config $qwen/config.json --topology v5e-8 --batch 64 \
          --seq 1024 --fsdp 8 --remat --emit-stablehlo target/tpu-plan/jax-train.mlir 2>/dev/null
        "$py" tools/stablehlo_dot_flops.py --partitions 8 target/tpu-plan/jax-train.mlir
      fi
      ;;
    depth)
      for layers in 2 24; do
        jax --config $qwen/config.json --topology v5e-8 --batch 64 --seq 1024 --fsdp 8 --remat \
          --layers $layers
        jax --config $qwen/config.json --topology v5e-8 --batch 64 --seq 1024 --fsdp 8 --remat \
          --layers $layers --scan
      done
      ;;
    qwen3-8b-v6e | qwen3-8b-v5e)
      topo=v6e-16
      [ "$row" = qwen3-8b-v5e ] && topo=v5e-16
      layers=scanned plan $topo actor_rollout_ref.model.path=$qwen3 trainer.n_gpus_per_node=8 \
        trainer.samplers=1 actor_rollout_ref.rollout.tensor_model_parallel_size=8 \
        actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
        data.max_prompt_length=512 data.max_response_length=512
      ;;
    qwen3-8b-v5p)
      layers=scanned plan v5p-16 actor_rollout_ref.model.path=$qwen3 trainer.n_gpus_per_node=4 \
        trainer.samplers=1 actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
        actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
        data.max_prompt_length=512 data.max_response_length=512
      ;;
    gemma3-4b-v6e)
      layers=scanned plan v6e-8 actor_rollout_ref.model.path=$gemma3 trainer.n_gpus_per_node=4 \
        trainer.samplers=1 actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
        actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
        data.max_prompt_length=512 data.max_response_length=512
      ;;
    qwen3-30b-a3b-v5p)
      layers=scanned plan v5p-32 actor_rollout_ref.model.path=$qwen3moe \
        trainer.n_gpus_per_node=8 trainer.samplers=1 \
        actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
        actor_rollout_ref.rollout.max_num_seqs=32 \
        actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8 \
        data.max_prompt_length=512 data.max_response_length=512
      ;;
    *)
      echo "tpu-plan.sh: unknown row '$row' (qwen-v5e qwen-v5e-blockwise qwen-v5e-keep qwen-v5e-blockwise-keep flops depth-javelin llama-v6e llama-v5p logprobs16k depth" \
        "qwen3-8b-v6e qwen3-8b-v5p qwen3-8b-v5e gemma3-4b-v6e qwen3-30b-a3b-v5p)" >&2
      exit 2
      ;;
  esac
done
