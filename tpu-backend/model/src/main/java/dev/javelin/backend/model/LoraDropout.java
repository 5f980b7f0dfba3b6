package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The dropout masks of a LoRA train step, drawn on the host and passed to the program as inputs
 * ({@link ModelWeights#linear}): the op set has no random numbers, and an input mask is the same in
 * the forward pass, the backward pass and any recomputation of them. Each adapter gets its own
 * mask, as each PEFT LoRA layer has its own dropout module.
 */
public final class LoraDropout {
  private LoraDropout() {}

  /**
   * The masks of micro-batch {@code microBatch} of optimizer step {@code step}, by input name: for
   * each adapter {@code program} has a mask input for, a mask of the shape {@code program} declares
   * for it (its input x), each entry 0 with probability p and {@code 1/(1-p)} otherwise (inverted
   * dropout, so the expected input is unchanged). Drawn from {@code (seed, step, microBatch)}
   * alone, so a step draws the same masks on every run and after a resume.
   */
  public static Map<String, Tensor.F32> masks(
      LoraConfig lora, ModelConfig c, Program program, long seed, long step, int microBatch) {
    if (!lora.drops()) {
      throw new IllegalArgumentException("LoRA masks need a dropout > 0, got " + lora.dropout());
    }
    SplittableRandom rnd = new SplittableRandom(mix(mix(seed, step), microBatch));
    double p = lora.dropout();
    float keep = (float) (1.0 / (1.0 - p));
    Map<String, Shape> declared = new LinkedHashMap<>();
    program.parameters().forEach(n -> declared.put(((Op.Parameter) n.op()).name(), n.shape()));
    Map<String, Tensor.F32> out = new LinkedHashMap<>();
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      SplittableRandom own = rnd.split(); // one stream per adapter, used or not
      Shape shape = declared.get(a.dropoutMask()); // (..., in)
      if (shape == null) {
        continue;
      }
      float[] m = new float[shape.intSize()];
      for (int i = 0; i < m.length; i++) {
        m[i] = own.nextDouble() < p ? 0f : keep;
      }
      out.put(a.dropoutMask(), new Tensor.F32(shape, m));
    }
    return out;
  }

  /** A 64-bit mix of two values (SplitMix64's finaliser over their sum). */
  private static long mix(long a, long b) {
    long z = a * 0x9E3779B97F4A7C15L + b;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
