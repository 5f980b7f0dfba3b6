package dev.javelin.backend;

/**
 * bfloat16 and IEEE half conversions (bit patterns in the low 16 bits of an int), and rounding to
 * bf16 values held in a float or double. The one place bf16 rounding is written: the devices, the
 * safetensors codec and the XLA transfers all call it.
 */
public final class Bf16 {
  private Bf16() {}

  public static float bf16ToFloat(int bits) {
    return Float.intBitsToFloat((bits & 0xFFFF) << 16);
  }

  /** Round to nearest even, as torch and XLA do; NaN stays NaN (made quiet). */
  public static int floatToBf16(float f) {
    int x = Float.floatToRawIntBits(f);
    if (Float.isNaN(f)) {
      return ((x >>> 16) | 0x40) & 0xFFFF;
    }
    int rounding = 0x7FFF + ((x >>> 16) & 1);
    return ((x + rounding) >>> 16) & 0xFFFF;
  }

  /** {@code f} rounded to the nearest bf16 value (ties to even), as a float. */
  public static float round(float f) {
    return bf16ToFloat(floatToBf16(f));
  }

  /**
   * {@code v} rounded once to the nearest bf16 value (ties to even). Going through f32 with plain
   * rounding could round twice (a double just above a bf16 midpoint can become the midpoint in f32
   * and then tie to even, the wrong way), so the f32 step rounds to odd: an inexact result keeps a
   * set low bit, which f32's 16 extra mantissa bits carry through to the bf16 rounding.
   */
  public static float round(double v) {
    float f = (float) v;
    if (f == v || Double.isNaN(v)) {
      return round(f);
    }
    if (Math.abs((double) f) > Math.abs(v)) {
      f = Math.nextAfter(f, 0.0); // truncate toward zero (an infinity becomes the largest float)
    }
    return round(Float.intBitsToFloat(Float.floatToRawIntBits(f) | 1));
  }

  /** Rounds {@code a[from, from + n)} to bf16 in place. */
  public static void roundInPlace(float[] a, int from, int n) {
    for (int i = from; i < from + n; i++) {
      a[i] = round(a[i]);
    }
  }

  /** The bit patterns of bf16 values held in floats (exact: each is already a bf16 value). */
  public static short[] toBits(float[] values) {
    short[] bits = new short[values.length];
    for (int i = 0; i < bits.length; i++) {
      bits[i] = (short) floatToBf16(values[i]);
    }
    return bits;
  }

  /** bf16 bit patterns widened to floats. */
  public static float[] fromBits(short[] bits) {
    float[] values = new float[bits.length];
    for (int i = 0; i < bits.length; i++) {
      values[i] = bf16ToFloat(bits[i]);
    }
    return values;
  }

  /** IEEE binary16 to f32 (Java 17 has no Float.float16ToFloat). */
  public static float f16ToFloat(int bits) {
    int sign = (bits & 0x8000) << 16;
    int exp = (bits >>> 10) & 0x1F;
    int mant = bits & 0x3FF;
    if (exp == 0x1F) {
      return Float.intBitsToFloat(sign | 0x7F800000 | (mant << 13));
    }
    if (exp == 0) {
      // subnormal or zero: mant * 2^-24
      float v = mant * 0x1p-24f;
      return sign == 0 ? v : -v;
    }
    return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
  }
}
