package dev.javelin.backend.checkpoint.gguf;

import dev.javelin.backend.Shape;
import java.util.Arrays;

/**
 * One tensor's entry in a GGUF file.
 *
 * @param name llama.cpp tensor name ({@code blk.0.attn_q.weight})
 * @param dims GGUF dimensions, fastest-varying first (ne[0] is the row length)
 * @param type element type
 * @param offset absolute byte offset of the data in the file
 * @param bytes size of the data in bytes
 */
public record GgufTensorInfo(String name, long[] dims, GgmlType type, long offset, long bytes) {

  public GgufTensorInfo {
    dims = dims.clone();
  }

  @Override
  public long[] dims() {
    return dims.clone();
  }

  public long elements() {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    return n;
  }

  /** Row-major shape, slowest dimension first (the Hugging Face / PyTorch order). */
  public Shape shape() {
    int[] s = new int[dims.length];
    for (int i = 0; i < dims.length; i++) {
      s[i] = Math.toIntExact(dims[dims.length - 1 - i]);
    }
    return Shape.of(s);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GgufTensorInfo t
        && name.equals(t.name)
        && Arrays.equals(dims, t.dims)
        && type == t.type
        && offset == t.offset
        && bytes == t.bytes;
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + Arrays.hashCode(dims);
  }

  @Override
  public String toString() {
    return name + " " + type + " " + Arrays.toString(dims) + " @" + offset;
  }
}
