package dev.javelin.weightsync;

import java.util.Arrays;
import java.util.Objects;

/**
 * Where one named parameter sits inside a snapshot's payload.
 *
 * @param name Hugging Face parameter name, e.g. {@code model.layers.0.self_attn.q_proj.weight}
 * @param type element encoding on the wire
 * @param shape dimension sizes
 * @param offset byte offset in the payload
 */
public record TensorEntry(String name, WireType type, int[] shape, long offset) {
  public TensorEntry {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    shape = shape.clone();
    for (int d : shape) {
      if (d < 0) {
        throw new IllegalArgumentException(
            "negative dimension in " + name + Arrays.toString(shape));
      }
    }
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset for " + name);
    }
    long bytes = 1;
    try { // a shape from another process must not overflow the byte count it implies
      for (int d : shape) {
        bytes = Math.multiplyExact(bytes, (long) d);
      }
      Math.multiplyExact(bytes, (long) type.byteSize());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "shape " + Arrays.toString(shape) + " of " + name + " overflows a byte count", e);
    }
  }

  /** Number of elements. */
  public long elements() {
    long n = 1;
    for (int d : shape) {
      n = Math.multiplyExact(n, d);
    }
    return n;
  }

  public long byteLength() {
    return elements() * type.byteSize();
  }

  @Override
  public int[] shape() {
    return shape.clone();
  }

  /** Same name, type and shape: what a receiver checks before accepting new weights. */
  public boolean sameLayout(TensorEntry other) {
    return name.equals(other.name) && type == other.type && Arrays.equals(shape, other.shape);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TensorEntry e && sameLayout(e) && offset == e.offset;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, type, Arrays.hashCode(shape), offset);
  }

  @Override
  public String toString() {
    return name + ":" + type + Arrays.toString(shape) + "@" + offset;
  }
}
