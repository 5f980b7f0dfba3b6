package dev.javelin.trainer.engine;

import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.LoraConfig;
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
 */
public record UpdaterOptions(Remat remat, LoraConfig lora, long loraSeed, DType compute) {
  public UpdaterOptions {
    Objects.requireNonNull(remat, "remat");
    Objects.requireNonNull(lora, "lora");
    Objects.requireNonNull(compute, "compute");
  }

  /** The default remat, full fine-tuning, f32. */
  public static UpdaterOptions defaults() {
    return new UpdaterOptions(PolicyOptimizer.defaultRemat(), LoraConfig.NONE, 0, DType.F32);
  }
}
