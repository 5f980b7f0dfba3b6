package dev.javelin.backend.checkpoint.gguf;

import dev.javelin.backend.Bf16;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Naive dequantisation: element i is computed on its own, straight from the block layout (which
 * block, which sub-block scale, which bits), with no loop structure shared with {@link Dequant}.
 * Tests hold the fast loops to it.
 */
public final class DequantReference {
  private DequantReference() {}

  public static float[] toF32(GgmlType type, ByteBuffer data, int n) {
    ByteBuffer b = data.slice().order(ByteOrder.LITTLE_ENDIAN);
    float[] y = new float[n];
    for (int i = 0; i < n; i++) {
      y[i] = element(type, b, i);
    }
    return y;
  }

  static float element(GgmlType type, ByteBuffer b, int i) {
    int at = i / type.blockElements() * type.blockBytes();
    int j = i % type.blockElements();
    return switch (type) {
      case F32 -> b.getFloat(4 * i);
      case F16 -> Bf16.f16ToFloat(b.getShort(2 * i));
      case BF16 -> Bf16.bf16ToFloat(b.getShort(2 * i));
      case Q8_0 -> b.get(at + 2 + j) * Dequant.half(b, at);
      case Q4_0 -> (nibble(b, at + 2, j) - 8) * Dequant.half(b, at);
      case Q4_1 -> nibble(b, at + 4, j) * Dequant.half(b, at) + Dequant.half(b, at + 2);
      case Q5_0 ->
          ((nibble(b, at + 6, j) | ((b.get(at + 2 + j / 8) >>> (j % 8)) & 1) << 4) - 16)
              * Dequant.half(b, at);
      case Q4_K -> kQuant(b, at, j, (b.get(at + 16 + qsByte(j)) & 0xFF) >>> qsShift(j) & 0xF);
      case Q5_K -> kQuant(b, at, j, q5(b, at, j));
      case Q6_K -> q6(b, at, j);
    };
  }

  /** 32-element blocks: byte j%16 holds element j in its low nibble (j<16) or high nibble. */
  private static int nibble(ByteBuffer b, int qs, int j) {
    int q = b.get(qs + j % 16) & 0xFF;
    return j < 16 ? q & 0xF : q >>> 4;
  }

  /** K-quants: 8 sub-blocks of 32; pairs of sub-blocks share 32 bytes (low, then high nibbles). */
  private static int qsByte(int j) {
    return (j / 64) * 32 + j % 32;
  }

  private static int qsShift(int j) {
    return (j / 32) % 2 == 0 ? 0 : 4;
  }

  private static float kQuant(ByteBuffer b, int at, int j, int q) {
    int sub = j / 32;
    float sc = Dequant.half(b, at) * Dequant.scaleMinK4(b, at + 4, sub, false);
    float m = Dequant.half(b, at + 2) * Dequant.scaleMinK4(b, at + 4, sub, true);
    return sc * q - m;
  }

  /** Q5_K: four low bits as Q4_K, the fifth in qh[j%32], bit number = sub-block index. */
  private static int q5(ByteBuffer b, int at, int j) {
    int low = (b.get(at + 48 + qsByte(j)) & 0xFF) >>> qsShift(j) & 0xF;
    int high = (b.get(at + 16 + j % 32) >>> (j / 32)) & 1;
    return low | high << 4;
  }

  /**
   * Q6_K: two halves of 128; in a half, element l + 32·g (g = 0..3) takes 4 low bits from ql[l +
   * 32·(g%2)] (low nibble for g<2), 2 high bits from qh[l] at bit 2·g, scale 16-wide.
   */
  private static float q6(ByteBuffer b, int at, int j) {
    int half = j / 128;
    int r = j % 128;
    int g = r / 32;
    int l = r % 32;
    int lo = b.get(at + 64 * half + l + 32 * (g % 2)) & 0xFF;
    int low = g < 2 ? lo & 0xF : lo >>> 4;
    int high = ((b.get(at + 128 + 32 * half + l) & 0xFF) >>> (2 * g)) & 3;
    int scale = b.get(at + 192 + 8 * half + l / 16 + 2 * g);
    return Dequant.half(b, at + 208) * scale * ((low | high << 4) - 32);
  }
}
