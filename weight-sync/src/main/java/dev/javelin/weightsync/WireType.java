package dev.javelin.weightsync;

/**
 * How a tensor's elements travel: full f32, or bf16 (the top 16 bits, rounded to nearest even),
 * which halves the bytes moved at the cost of 8 mantissa bits. Samplers tolerate bf16 weights; the
 * trainer keeps f32.
 */
public enum WireType {
  F32(0, 4),
  BF16(1, 2);

  private final int code;
  private final int byteSize;

  WireType(int code, int byteSize) {
    this.code = code;
    this.byteSize = byteSize;
  }

  /** The byte that names this type on the wire: fixed here, not taken from declaration order. */
  public int code() {
    return code;
  }

  /** The type with wire code {@code code}, or null. */
  public static WireType ofCode(int code) {
    for (WireType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }

  public int byteSize() {
    return byteSize;
  }

  /** Parses the recipe spelling ({@code f32}/{@code float32}, {@code bf16}/{@code bfloat16}). */
  public static WireType parse(String s) {
    return switch (s.toLowerCase(java.util.Locale.ROOT)) {
      case "f32", "float32", "fp32" -> F32;
      case "bf16", "bfloat16" -> BF16;
      default ->
          throw new IllegalArgumentException(
              "unknown weight transfer dtype '" + s + "' (use f32 or bf16)");
    };
  }

  /** f32 to bf16 bits with round-to-nearest-even; NaN stays a quiet NaN. */
  static short toBf16(float f) {
    int bits = Float.floatToRawIntBits(f);
    if (Float.isNaN(f)) {
      return (short) ((bits >>> 16) | 0x40);
    }
    int rounding = 0x7FFF + ((bits >>> 16) & 1);
    return (short) ((bits + rounding) >>> 16);
  }

  static float fromBf16(short b) {
    return Float.intBitsToFloat((b & 0xFFFF) << 16);
  }
}
