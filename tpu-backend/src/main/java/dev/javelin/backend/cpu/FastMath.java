package dev.javelin.backend.cpu;

/**
 * f32 {@code exp} without the trip through double: Cody-Waite range reduction and the Cephes {@code
 * expf} polynomial, about 1e-7 relative error, branch-light so that the JIT can keep the block
 * loops tight. Results below the smallest normal float flush to zero (absolute error under
 * 1.2e-38).
 */
final class FastMath {
  private static final float LOG2E = 1.44269504088896341f;
  private static final float LN2_HI = 0.693359375f;
  private static final float LN2_LO = -2.12194440e-4f;
  private static final float MAX_ARG = 88.72283f;
  private static final float MIN_ARG = -87.33654f;

  private FastMath() {}

  static float exp(float x) {
    if (!(x < MAX_ARG)) {
      return Float.isNaN(x) ? x : Float.POSITIVE_INFINITY;
    }
    if (x < MIN_ARG) {
      return 0f;
    }
    float t = x * LOG2E;
    int n = (int) (t + (t >= 0 ? 0.5f : -0.5f));
    float r = x - n * LN2_HI - n * LN2_LO;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    float e = p * r * r + r + 1f;
    if (n > 127) {
      return e * 2f * 1.70141183e38f; // 2 * 2^127: 2^128 has no float
    }
    return e * Float.intBitsToFloat((n + 127) << 23);
  }
}
