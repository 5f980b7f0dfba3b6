package dev.javelin.backend.cpu;

/**
 * f32 {@code exp} and {@code logistic} over a run of elements, written so that C2's superword pass
 * vectorises them on JDK 17 (no Vector API): the math runs as three plain loops per chunk, and only
 * the one that builds {@code 2^n} from float bits (a move C2 does not vectorise) stays scalar.
 *
 * <p>{@code exp(y) = p(r) · 2^n} with {@code n = round(y / ln 2)} found by the 1.5·2²³ rounding
 * trick, {@code r = y - n ln 2} (Cody-Waite, two parts of ln 2) and the Cephes {@code expf}
 * polynomial {@code p}. {@code 2^n} is applied as {@code 2^n₁ · 2^(n-n₁)} with {@code n₁ = round(n
 * / 2)}, so that results underflow to subnormals and zero, and overflow to infinity, exactly where
 * {@code Math.exp} does, with no branch. {@code y} is first clamped to [-104, 88.8]: beyond it the
 * result is 0 or +inf anyway, and NaN passes through. Relative error ≤ 2e-7 on the normal range,
 * absolute error ≤ 1.5e-45 below it (checked in {@code ExpLoopsTest}).
 */
@SuppressWarnings(
    "FloatingPointLiteralPrecision") // the reference polynomial's digits, kept as published
final class ExpLoops {
  private static final float LOG2E = 1.44269504088896341f;
  private static final float LN2_HI = 0.693359375f;
  private static final float LN2_LO = -2.12194440e-4f;

  /** 1.5·2²³: adding it rounds a float of magnitude < 2²² to an integer held in the low bits. */
  private static final float ROUND = 12582912f;

  private static final float LO = -104f;
  private static final float HI = 88.8f;
  private static final int CHUNK = 256;

  /** Runs shorter than this take the one-loop scalar form. */
  private static final int SHORT = 64;

  private ExpLoops() {}

  /**
   * Working arrays for one thread: a chunk of the input (then the result), {@code 2^n₁} and {@code
   * 2^(n-2n₁)}. Callers on a hot path keep one per thread ({@link BlockProgram.Scratch}); a
   * ThreadLocal lookup measured ~13% of a GRPO step on Ray's actor threads, whose thread-local maps
   * are crowded.
   */
  static float[][] newScratch() {
    return new float[3][CHUNK];
  }

  /** {@code o[oo + i] = exp(a[ao + i])} for {@code i < n}. */
  static void exp(float[] a, int ao, float[] o, int oo, int n) {
    run(false, a, ao, o, oo, n, null);
  }

  /** {@code o[oo + i] = 1 / (1 + exp(-a[ao + i]))} for {@code i < n}. */
  static void logistic(float[] a, int ao, float[] o, int oo, int n) {
    run(true, a, ao, o, oo, n, null);
  }

  /** exp or logistic with the caller's {@link #newScratch} (null: allocate one if needed). */
  static void run(
      boolean logistic, float[] a, int ao, float[] o, int oo, int n, float[][] scratch) {
    if (n < SHORT) {
      for (int i = 0; i < n; i++) {
        float e = exp(logistic ? -a[ao + i] : a[ao + i]);
        o[oo + i] = logistic ? 1f / (1f + e) : e;
      }
      return;
    }
    chunks(logistic, a, ao, o, oo, n, scratch == null ? newScratch() : scratch);
  }

  /**
   * Works on chunks copied to scratch arrays: C2 (JDK 17) gives up on a loop that mixes accesses at
   * a run-time offset ({@code a[ao + i]}) with accesses at none ({@code scale[i]}), so every loop
   * here indexes from 0. The copies also make {@code o == a} safe.
   */
  private static void chunks(
      boolean logistic, float[] a, int ao, float[] o, int oo, int n, float[][] s) {
    float[] x = s[0];
    float[] scale = s[1];
    float[] fix = s[2];
    float sign = logistic ? -1f : 1f;
    for (int c = 0; c < n; c += CHUNK) {
      int m = Math.min(CHUNK, n - c);
      System.arraycopy(a, ao + c, x, 0, m);
      splitExponent(sign, x, scale, fix, m);
      powersOfTwo(scale, m);
      finish(sign, x, scale, fix, m);
      if (logistic) {
        for (int i = 0; i < m; i++) {
          x[i] = 1f / (1f + x[i]);
        }
      }
      System.arraycopy(x, 0, o, oo + c, m);
    }
  }

  /**
   * The same arithmetic for one element (bit for bit what the loops give), for runs too short to
   * pay for the chunked form, such as the rows of a softmax over 16 keys.
   */
  private static float exp(float x) {
    float y = Math.min(Math.max(x, LO), HI);
    float n = (y * LOG2E + ROUND) - ROUND;
    float t1 = n * 0.5f + ROUND;
    float d = n - 2f * (t1 - ROUND);
    float s1 = Float.intBitsToFloat((Float.floatToRawIntBits(t1) + 127) << 23);
    return (poly(y, n) * s1) * (s1 * (1f + d * (0.75f + 0.25f * d)));
  }

  /** {@code e^r} for {@code r = y - n ln 2}, |r| ≤ ln2 / 2. */
  private static float poly(float y, float n) {
    float r = Math.fma(n, -LN2_LO, Math.fma(n, -LN2_HI, y));
    float p = Math.fma(1.9875691500e-4f, r, 1.3981999507e-3f);
    p = Math.fma(p, r, 8.3334519073e-3f);
    p = Math.fma(p, r, 4.1665795894e-2f);
    p = Math.fma(p, r, 1.6666665459e-1f);
    p = Math.fma(p, r, 5.0000001201e-1f);
    return Math.fma(p, r * r, r) + 1f;
  }

  /** scale = n₁ + ROUND (n₁ in its low bits); fix = 2^(n - 2n₁) ∈ {½, 1, 2}. Vectorised. */
  private static void splitExponent(float sign, float[] x, float[] scale, float[] fix, int m) {
    for (int i = 0; i < m; i++) {
      float y = Math.min(Math.max(sign * x[i], LO), HI);
      float n = (y * LOG2E + ROUND) - ROUND;
      float t1 = n * 0.5f + ROUND;
      float d = n - 2f * (t1 - ROUND);
      scale[i] = t1;
      fix[i] = 1f + d * (0.75f + 0.25f * d);
    }
  }

  /** scale = 2^n₁ from the integer in its low bits. Scalar: C2 does not vectorise bit moves. */
  private static void powersOfTwo(float[] scale, int m) {
    for (int i = 0; i < m; i++) {
      // (bits(ROUND) + n₁ + 127) << 23: ROUND's own bits all shift out, leaving the exponent.
      scale[i] = Float.intBitsToFloat((Float.floatToRawIntBits(scale[i]) + 127) << 23);
    }
  }

  /** x = p(r) · 2^n₁ · (2^n₁ · fix), underflowing in the last product only. Vectorised. */
  private static void finish(float sign, float[] x, float[] scale, float[] fix, int m) {
    for (int i = 0; i < m; i++) {
      float y = Math.min(Math.max(sign * x[i], LO), HI);
      float n = (y * LOG2E + ROUND) - ROUND;
      float s1 = scale[i];
      x[i] = (poly(y, n) * s1) * (s1 * fix[i]);
    }
  }
}
