package dev.javelin.backend.checkpoint.gguf;

import dev.javelin.backend.Bf16;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Block-at-a-time dequantisation of ggml tensor data to f32, following ggml's {@code
 * dequantize_row_*}. {@link DequantReference} computes each element on its own from the same format
 * description; tests require the two to agree exactly.
 */
public final class Dequant {
  private Dequant() {}

  /** Decodes {@code n} elements of {@code type} from {@code data} (read from its position). */
  public static float[] toF32(GgmlType type, ByteBuffer data, int n) {
    ByteBuffer b = data.slice().order(ByteOrder.LITTLE_ENDIAN);
    if (n % type.blockElements() != 0
        || (long) n / type.blockElements() * type.blockBytes() > b.remaining()) {
      throw new IllegalArgumentException(n + " " + type + " elements do not fit the data");
    }
    float[] y = new float[n];
    int blocks = n / type.blockElements();
    switch (type) {
      case F32 -> b.asFloatBuffer().get(y);
      case F16 -> {
        for (int i = 0; i < n; i++) y[i] = Bf16.f16ToFloat(b.getShort(2 * i));
      }
      case BF16 -> {
        for (int i = 0; i < n; i++) y[i] = Bf16.bf16ToFloat(b.getShort(2 * i));
      }
      case Q8_0 -> {
        for (int k = 0; k < blocks; k++) q8_0(b, k * 34, y, k * 32);
      }
      case Q4_0 -> {
        for (int k = 0; k < blocks; k++) q4(b, k * 18, y, k * 32, false);
      }
      case Q4_1 -> {
        for (int k = 0; k < blocks; k++) q4(b, k * 20, y, k * 32, true);
      }
      case Q5_0 -> {
        for (int k = 0; k < blocks; k++) q5_0(b, k * 22, y, k * 32);
      }
      case Q4_K -> {
        for (int k = 0; k < blocks; k++) q4k(b, k * 144, y, k * 256);
      }
      case Q5_K -> {
        for (int k = 0; k < blocks; k++) q5k(b, k * 176, y, k * 256);
      }
      case Q6_K -> {
        for (int k = 0; k < blocks; k++) q6k(b, k * 210, y, k * 256);
      }
    }
    return y;
  }

  static float half(ByteBuffer b, int at) {
    return Bf16.f16ToFloat(b.getShort(at));
  }

  private static void q8_0(ByteBuffer b, int at, float[] y, int o) {
    float d = half(b, at);
    for (int j = 0; j < 32; j++) {
      y[o + j] = b.get(at + 2 + j) * d;
    }
  }

  /** Q4_0: x = (q - 8)·d; Q4_1: x = q·d + m. Low nibbles are elements 0..15, high 16..31. */
  private static void q4(ByteBuffer b, int at, float[] y, int o, boolean withMin) {
    float d = half(b, at);
    float m = withMin ? half(b, at + 2) : 0f;
    int qs = at + (withMin ? 4 : 2);
    int shift = withMin ? 0 : 8;
    for (int j = 0; j < 16; j++) {
      int q = b.get(qs + j) & 0xFF;
      if (withMin) {
        y[o + j] = (q & 0xF) * d + m;
        y[o + j + 16] = (q >>> 4) * d + m;
      } else {
        y[o + j] = ((q & 0xF) - shift) * d;
        y[o + j + 16] = ((q >>> 4) - shift) * d;
      }
    }
  }

  /**
   * Q5_0: x = (q - 16)·d with a 5-bit q: low four bits as in Q4_0, the fifth of element j is bit j
   * of the little-endian 32-bit qh that follows d. llama.cpp picks it for rows whose length (640 in
   * Gemma 3 270M) is not a multiple of the K-quants' 256.
   */
  private static void q5_0(ByteBuffer b, int at, float[] y, int o) {
    float d = half(b, at);
    int qh = b.getInt(at + 2);
    for (int j = 0; j < 16; j++) {
      int q = b.get(at + 6 + j) & 0xFF;
      int h0 = (qh >>> j) & 1;
      int h1 = (qh >>> (j + 16)) & 1;
      y[o + j] = (((q & 0xF) | h0 << 4) - 16) * d;
      y[o + j + 16] = (((q >>> 4) | h1 << 4) - 16) * d;
    }
  }

  /** The 6-bit scale (or, with {@code min}, the 6-bit min) of sub-block j of a K-quant block. */
  static int scaleMinK4(ByteBuffer b, int scales, int j, boolean min) {
    int q = b.get(scales + j) & 0xFF;
    int q4 = b.get(scales + j + 4) & 0xFF;
    if (j < 4) {
      return min ? q4 & 63 : q & 63;
    }
    int qm4 = b.get(scales + j - 4) & 0xFF;
    return min ? (q4 >>> 4) | ((q >>> 6) << 4) : (q4 & 0xF) | ((qm4 >>> 6) << 4);
  }

  private static void q4k(ByteBuffer b, int at, float[] y, int o) {
    k4(b, at, at + 16, -1, y, o);
  }

  private static void q5k(ByteBuffer b, int at, float[] y, int o) {
    k4(b, at, at + 48, at + 16, y, o);
  }

  /**
   * A Q4_K block (no {@code qh}: pass -1), or a Q5_K block, which is Q4_K's layout plus a fifth bit
   * per weight in the 32 bytes at {@code qh}: 8 sub-blocks of 32 weights, each {@code d · scale · q
   * - dmin · min}, the low nibbles at {@code qs}.
   */
  private static void k4(ByteBuffer b, int at, int qs, int qh, float[] y, int o) {
    float d = half(b, at);
    float dmin = half(b, at + 2);
    int scales = at + 4;
    for (int j = 0; j < 4; j++) {
      float d1 = d * scaleMinK4(b, scales, 2 * j, false);
      float m1 = dmin * scaleMinK4(b, scales, 2 * j, true);
      float d2 = d * scaleMinK4(b, scales, 2 * j + 1, false);
      float m2 = dmin * scaleMinK4(b, scales, 2 * j + 1, true);
      int u1 = 1 << (2 * j);
      int u2 = 2 << (2 * j);
      for (int l = 0; l < 32; l++) {
        int q = b.get(qs + 32 * j + l) & 0xFF;
        int h = qh < 0 ? 0 : b.get(qh + l) & 0xFF;
        y[o + 64 * j + l] = d1 * ((q & 0xF) + ((h & u1) != 0 ? 16 : 0)) - m1;
        y[o + 64 * j + 32 + l] = d2 * ((q >>> 4) + ((h & u2) != 0 ? 16 : 0)) - m2;
      }
    }
  }

  private static void q6k(ByteBuffer b, int at, float[] y, int o) {
    float d = half(b, at + 208);
    for (int n = 0; n < 2; n++) {
      int ql = at + 64 * n;
      int qh = at + 128 + 32 * n;
      int sc = at + 192 + 8 * n;
      int out = o + 128 * n;
      for (int l = 0; l < 32; l++) {
        int is = l / 16;
        int lo = b.get(ql + l) & 0xFF;
        int lo32 = b.get(ql + l + 32) & 0xFF;
        int h = b.get(qh + l) & 0xFF;
        int q1 = ((lo & 0xF) | ((h & 3) << 4)) - 32;
        int q2 = ((lo32 & 0xF) | (((h >>> 2) & 3) << 4)) - 32;
        int q3 = ((lo >>> 4) | (((h >>> 4) & 3) << 4)) - 32;
        int q4 = ((lo32 >>> 4) | (((h >>> 6) & 3) << 4)) - 32;
        y[out + l] = d * b.get(sc + is) * q1;
        y[out + l + 32] = d * b.get(sc + is + 2) * q2;
        y[out + l + 64] = d * b.get(sc + is + 4) * q3;
        y[out + l + 96] = d * b.get(sc + is + 6) * q4;
      }
    }
  }
}
