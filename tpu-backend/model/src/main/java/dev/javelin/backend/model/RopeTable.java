package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.util.List;

/**
 * Host-computed rotary tables {@code cos(p·θ^(-2i/Dh)/s)} and {@code sin(...)} of shape (P, R·Dh/2)
 * for the R rotary bases a family's blocks use ({@link Architecture#ropes}): base r fills columns
 * {@code [r·Dh/2, (r+1)·Dh/2)}. The op set has no sin/cos, so the tables are program inputs
 * gathered by position. The f32 rounding steps follow Hugging Face's {@code default} and {@code
 * linear} rotary inits so parity holds to f32 noise.
 */
public record RopeTable(Tensor.F32 cos, Tensor.F32 sin) {

  /**
   * One rotary base.
   *
   * @param theta the base θ
   * @param linearFactor positions divided by this ({@code rope_scaling} of type linear; 1: none)
   */
  public record Rope(double theta, double linearFactor) {
    public Rope {
      if (!(theta > 0) || !(linearFactor > 0)) {
        throw new IllegalArgumentException(
            "rotary base and factor must be > 0, got " + theta + ", " + linearFactor);
      }
    }
  }

  /** The width of c's tables: Dh/2 per rotary base. */
  public static int width(ModelConfig c) {
    return c.headDim() / 2 * c.architecture().ropes(c).size();
  }

  /** Tables for positions {@code 0 .. positions-1}. */
  public static RopeTable compute(ModelConfig c, int positions) {
    int half = c.headDim() / 2;
    List<Rope> ropes = c.architecture().ropes(c);
    int width = half * ropes.size();
    float[] cos = new float[positions * width];
    float[] sin = new float[positions * width];
    for (int r = 0; r < ropes.size(); r++) {
      float[] invFreq = inverseFrequencies(ropes.get(r), c.headDim());
      for (int p = 0; p < positions; p++) {
        for (int i = 0; i < half; i++) {
          float angle = p * invFreq[i];
          cos[p * width + r * half + i] = (float) Math.cos(angle);
          sin[p * width + r * half + i] = (float) Math.sin(angle);
        }
      }
    }
    Shape s = Shape.of(positions, width);
    return new RopeTable(new Tensor.F32(s, cos), new Tensor.F32(s, sin));
  }

  private static float[] inverseFrequencies(Rope rope, int headDim) {
    float[] invFreq = new float[headDim / 2];
    for (int i = 0; i < invFreq.length; i++) {
      float exponent = (float) (2 * i) / headDim;
      invFreq[i] = (float) (1.0 / (float) Math.pow(rope.theta(), exponent));
      if (rope.linearFactor() != 1) {
        invFreq[i] = invFreq[i] / (float) rope.linearFactor();
      }
    }
    return invFreq;
  }
}
