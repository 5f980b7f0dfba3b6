package dev.javelin.backend.batch;

import java.util.Locale;

/**
 * What the LM head's vocabulary loop ({@link TokenStats#ofHiddenLooped}) keeps for its gradient.
 * {@link #RECOMPUTE} (the default) keeps nothing: the backward computes each block's logits again,
 * 2·N·D·V more flops per step for N tokens (about 7% of a Qwen2.5-0.5B GRPO step) and no (N, V)
 * value held. {@link #KEEP} stacks every block's logits (N·V·4 bytes in f32) and the backward reads
 * them, as a JAX step holding its log-softmax does. Chosen with the JVM property {@value #PROPERTY}
 * ({@code recompute} or {@code keep}); unrolled programs, whose head is tiled, ignore it.
 */
public enum HeadLogits {
  RECOMPUTE,
  KEEP;

  public static final String PROPERTY = "javelin.head.logits";

  /** The mode the {@value #PROPERTY} property names; {@link #RECOMPUTE} when unset. */
  public static HeadLogits configured() {
    String v = System.getProperty(PROPERTY, "recompute").trim().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "recompute", "" -> RECOMPUTE;
      case "keep" -> KEEP;
      default ->
          throw new IllegalArgumentException(
              "-D" + PROPERTY + "=" + v + ": expected recompute or keep");
    };
  }
}
