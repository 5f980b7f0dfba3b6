package dev.javelin.sampler;

import dev.javelin.backend.DType;
import dev.javelin.backend.spmd.MeshShape;

/**
 * Engine settings.
 *
 * @param maxSlots the most sequences decoded at once (vLLM's {@code max_num_seqs}); the batch of B
 *     rows is the smallest power of two holding the requests, capped here
 * @param dtype what prefill and decode compute in and the KV cache holds: f32, or bf16 (mixed
 *     precision: norms, softmax, logits and the sampling log-probs stay f32)
 * @param tensorParallel chips the model's heads and MLP columns are split over ({@code
 *     actor_rollout_ref.rollout.tensor_model_parallel_size}); 1 is one chip
 */
public record SamplerConfig(int maxSlots, DType dtype, int tensorParallel) {
  public SamplerConfig {
    if (tensorParallel < 1) {
      throw new IllegalArgumentException("tensorParallel must be >= 1, got " + tensorParallel);
    }
    if (maxSlots < 1) {
      throw new IllegalArgumentException("maxSlots must be >= 1, got " + maxSlots);
    }
    if (dtype != DType.F32 && dtype != DType.BF16) {
      throw new IllegalArgumentException("a sampler decodes in f32 or bf16, not " + dtype);
    }
  }

  /** On one chip. */
  public SamplerConfig(int maxSlots, DType dtype) {
    this(maxSlots, dtype, 1);
  }

  /** f32 decoding. */
  public SamplerConfig(int maxSlots) {
    this(maxSlots, DType.F32);
  }

  /** The type named {@code f32} or {@code bf16} ({@link DType#mlirName}), as actors receive it. */
  public static DType dtypeNamed(String name) {
    return switch (name) {
      case "f32" -> DType.F32;
      case "bf16" -> DType.BF16;
      default ->
          throw new IllegalArgumentException("sampler dtype must be f32 or bf16, got " + name);
    };
  }

  /** 256 slots: one arith-grpo step (32 prompts × 8) in a single batch. */
  public static SamplerConfig defaults() {
    return new SamplerConfig(256, DType.F32);
  }

  /** The sampler's mesh: tensor parallelism alone. */
  public MeshShape mesh() {
    return MeshShape.tensorParallel(tensorParallel);
  }

  /** Rows to use for {@code requests} requests: a power of two, at most {@link #maxSlots}. */
  public int rowsFor(int requests) {
    int rows = requests <= 1 ? 1 : Integer.highestOneBit(requests - 1) << 1;
    return Math.min(rows, maxSlots);
  }
}
