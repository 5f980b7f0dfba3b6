package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;

/**
 * Host-computed rotary tables {@code cos(p·θ^(-2i/Dh))} and {@code sin(...)} of shape (P, Dh/2).
 * The op set has no sin/cos, so the tables are program inputs gathered by position. The f32
 * rounding steps follow Hugging Face's {@code default} rotary init so parity holds to f32 noise.
 */
public record RopeTable(Tensor.F32 cos, Tensor.F32 sin) {

  /** Tables for positions {@code 0 .. positions-1}. */
  public static RopeTable compute(ModelConfig c, int positions) {
    int half = c.headDim() / 2;
    float[] cos = new float[positions * half];
    float[] sin = new float[positions * half];
    float[] invFreq = new float[half];
    for (int i = 0; i < half; i++) {
      float exponent = (float) (2 * i) / c.headDim();
      invFreq[i] = (float) (1.0 / (float) Math.pow(c.ropeTheta(), exponent));
    }
    for (int p = 0; p < positions; p++) {
      for (int i = 0; i < half; i++) {
        float angle = p * invFreq[i];
        cos[p * half + i] = (float) Math.cos(angle);
        sin[p * half + i] = (float) Math.sin(angle);
      }
    }
    Shape s = Shape.of(positions, half);
    return new RopeTable(new Tensor.F32(s, cos), new Tensor.F32(s, sin));
  }
}
