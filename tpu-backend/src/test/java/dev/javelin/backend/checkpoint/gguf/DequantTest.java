package dev.javelin.backend.checkpoint.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Bf16;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The block loops agree bit for bit with the per-element reference on random blocks. */
class DequantTest {
  @Test
  void fastLoopsMatchTheReference() {
    Random rng = new Random(3);
    for (GgmlType type : GgmlType.values()) {
      int n = 4 * 256;
      byte[] raw = new byte[n / type.blockElements() * type.blockBytes()];
      rng.nextBytes(raw);
      ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
      finiteScales(type, b, rng);
      float[] fast = Dequant.toF32(type, b, n);
      float[] ref = DequantReference.toF32(type, b, n);
      assertArrayEquals(ref, fast, 0f, type.name());
    }
  }

  @Test
  void rejectsDataShorterThanTheBlocks() {
    for (GgmlType type : GgmlType.values()) {
      int n = 2 * Math.max(32, type.blockElements());
      ByteBuffer b = ByteBuffer.allocate(n / type.blockElements() * type.blockBytes() - 1);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Dequant.toF32(type, b, n));
      assertTrue(e.getMessage().contains("do not fit"), type + ": " + e.getMessage());
    }
  }

  /** Random f16/f32 bit patterns include NaN, which never compares equal; keep scales finite. */
  private static void finiteScales(GgmlType type, ByteBuffer b, Random rng) {
    int blocks = b.capacity() / type.blockBytes();
    for (int k = 0; k < blocks; k++) {
      int at = k * type.blockBytes();
      switch (type) {
        case F32 -> {
          for (int i = 0; i < type.blockBytes(); i += 4)
            b.putFloat(at + i, (float) rng.nextGaussian());
        }
        case F16, BF16 -> b.putShort(at, (short) rng.nextInt(0x7000));
        case Q6_K -> b.putShort(at + 208, f16(rng));
        case Q4_1, Q4_K, Q5_K -> {
          b.putShort(at, f16(rng));
          b.putShort(at + 2, f16(rng));
        }
        default -> b.putShort(at, f16(rng));
      }
    }
  }

  private static short f16(Random rng) {
    // a finite half in roughly [-0.06, 0.06]: exponent 0..13, random sign and mantissa
    int bits = (rng.nextInt(2) << 15) | (rng.nextInt(14) << 10) | rng.nextInt(1024);
    assert Float.isFinite(Bf16.f16ToFloat(bits));
    return (short) bits;
  }
}
