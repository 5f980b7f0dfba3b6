package dev.javelin.trainer.engine;

import dev.javelin.backend.DType;
import dev.javelin.backend.distributed.Gang;
import dev.javelin.backend.distributed.GangReducer;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.runtime.GradientReducer;
import dev.javelin.backend.runtime.PolicyOptimizer;
import java.util.Objects;

/**
 * How a {@link PpoUpdater} runs its model, beyond the algorithm's {@code TrainerConfig}.
 *
 * @param remat what the backward pass keeps ({@link Remat#BLOCKS}: gradient checkpointing, VeRL's
 *     {@code enable_gradient_checkpointing})
 * @param lora LoRA adapters on the policy when it has a rank ({@link LoraConfig#NONE}: full
 *     fine-tuning)
 * @param loraSeed draws the fresh adapters and seeds LoRA dropout
 * @param compute the precision of log-probs and train steps: bf16 is mixed precision (a bf16 copy
 *     cast from the f32 weights in every program; f32 weights, gradients and AdamW moments), VeRL's
 *     {@code param_dtype}
 * @param gang the data-parallel gang this trainer is a rank of, or null for one process: each
 *     optimizer step then computes this rank's round-robin share of the micro-batches, and the
 *     gradients, losses and metrics are summed over the ranks (every rank holds the whole batch and
 *     applies the same update)
 */
public record UpdaterOptions(
    Remat remat, LoraConfig lora, long loraSeed, DType compute, Gang gang) {
  /** Options of a trainer that is one process. */
  public UpdaterOptions(Remat remat, LoraConfig lora, long loraSeed, DType compute) {
    this(remat, lora, loraSeed, compute, null);
  }

  public UpdaterOptions {
    Objects.requireNonNull(remat, "remat");
    Objects.requireNonNull(lora, "lora");
    Objects.requireNonNull(compute, "compute");
  }

  /** How the optimizer shares micro-batches: over the gang, or all here. */
  GradientReducer reducer() {
    return gang == null ? GradientReducer.LOCAL : new GangReducer(gang);
  }

  /** The default remat, full fine-tuning, f32. */
  public static UpdaterOptions defaults() {
    return new UpdaterOptions(PolicyOptimizer.defaultRemat(), LoraConfig.NONE, 0, DType.F32);
  }

  /** These options for rank {@code gang.rank()} of {@code gang}. */
  public UpdaterOptions withGang(Gang gang) {
    return new UpdaterOptions(remat, lora, loraSeed, compute, gang);
  }
}
