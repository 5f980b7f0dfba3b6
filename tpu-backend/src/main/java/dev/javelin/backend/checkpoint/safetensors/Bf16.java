package dev.javelin.backend.checkpoint.safetensors;

/** bfloat16 and IEEE half conversions (bit patterns in the low 16 bits of an int). */
public final class Bf16 {
  private Bf16() {}

  public static float bf16ToFloat(int bits) {
    return Float.intBitsToFloat((bits & 0xFFFF) << 16);
  }

  /** Round to nearest even, as torch does; NaN stays NaN. */
  static int floatToBf16(float f) {
    int x = Float.floatToRawIntBits(f);
    if (Float.isNaN(f)) {
      return ((x >>> 16) | 0x40) & 0xFFFF;
    }
    int rounding = 0x7FFF + ((x >>> 16) & 1);
    return ((x + rounding) >>> 16) & 0xFFFF;
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
