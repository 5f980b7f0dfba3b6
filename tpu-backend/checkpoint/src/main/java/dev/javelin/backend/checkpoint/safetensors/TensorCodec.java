package dev.javelin.backend.checkpoint.safetensors;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Little-endian encoding and decoding of tensor data in the safetensors storage types. */
final class TensorCodec {
  private TensorCodec() {}

  static Tensor decode(TensorInfo info, ByteBuffer buf) {
    int n = info.shape().intSize();
    return switch (info.type()) {
      case F32 -> {
        float[] out = new float[n];
        buf.asFloatBuffer().get(out);
        yield new Tensor.F32(info.shape(), out);
      }
      case F64 -> {
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
          out[i] = (float) buf.getDouble(8 * i);
        }
        yield new Tensor.F32(info.shape(), out);
      }
      case BF16, F16 -> {
        float[] out = new float[n];
        boolean bf = info.type() == StorageType.BF16;
        for (int i = 0; i < n; i++) {
          int bits = buf.getShort(2 * i) & 0xFFFF;
          out[i] = bf ? Bf16.bf16ToFloat(bits) : Bf16.f16ToFloat(bits);
        }
        yield new Tensor.F32(info.shape(), out);
      }
      case I32 -> {
        int[] out = new int[n];
        buf.asIntBuffer().get(out);
        yield new Tensor.I32(info.shape(), out);
      }
      case I64 -> {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
          long v = buf.getLong(8 * i);
          if (v != (int) v) {
            throw new SafetensorsException(
                "tensor '" + info.name() + "' holds " + v + ", outside the i32 range");
          }
          out[i] = (int) v;
        }
        yield new Tensor.I32(info.shape(), out);
      }
    };
  }

  /** Encodes a tensor as {@code type}: F32/BF16 for float tensors, I32 for int tensors. */
  static byte[] encode(Tensor t, StorageType type) {
    int n = t.shape().intSize();
    ByteBuffer buf = ByteBuffer.allocate(n * type.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
    if (t instanceof Tensor.F32 f && type == StorageType.F32) {
      buf.asFloatBuffer().put(f.data());
    } else if (t instanceof Tensor.F32 f && type == StorageType.BF16) {
      for (int i = 0; i < n; i++) {
        buf.putShort(2 * i, (short) Bf16.floatToBf16(f.data()[i]));
      }
    } else if (t instanceof Tensor.I32 v && type == StorageType.I32) {
      buf.asIntBuffer().put(v.data());
    } else {
      throw new SafetensorsException(
          "cannot write a " + t.describe() + " tensor as " + type + " (F32/BF16 floats, I32 ints)");
    }
    return buf.array();
  }
}
