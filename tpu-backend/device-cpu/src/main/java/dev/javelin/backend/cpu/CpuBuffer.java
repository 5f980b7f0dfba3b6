package dev.javelin.backend.cpu;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import org.bytedeco.javacpp.FloatPointer;

/**
 * A tensor resident on the cpu device: a host array the device owns (never shared with callers),
 * plus, for f32 values used as matrix operands, a lazily made off-heap mirror so that weights read
 * by every decode step are copied to native memory once, not per product.
 */
final class CpuBuffer implements DeviceBuffer {
  private final Tensor tensor;
  private final ArrayPool pool;
  private FloatPointer mirror;
  private boolean closed;

  /** Takes ownership of {@code tensor}'s array, which goes back to {@code pool} on close. */
  CpuBuffer(Tensor tensor, ArrayPool pool) {
    this.tensor = tensor;
    this.pool = pool;
  }

  /** A buffer holding a copy of {@code t}. */
  static CpuBuffer copyOf(Tensor t, ArrayPool pool) {
    return new CpuBuffer(copy(t), pool);
  }

  @Override
  public Shape shape() {
    return tensor.shape();
  }

  @Override
  public DType dtype() {
    return tensor.dtype();
  }

  /** The backing array (float[], double[], int[] or boolean[]); callers must not modify it. */
  Object array() {
    checkOpen();
    if (tensor instanceof Tensor.F32 t) {
      return t.data();
    } else if (tensor instanceof Tensor.BF16 t) {
      return t.data();
    } else if (tensor instanceof Tensor.F64 t) {
      return t.data();
    } else if (tensor instanceof Tensor.I32 t) {
      return t.data();
    }
    return ((Tensor.Pred) tensor).data();
  }

  /** The f32 (or bf16, widened) contents in native memory, made on first use. */
  synchronized FloatPointer mirror() {
    checkOpen();
    if (mirror == null) {
      float[] data = (float[]) array();
      mirror = new FloatPointer(Math.max(1, data.length));
      mirror.put(data, 0, data.length);
    }
    return mirror;
  }

  @Override
  public Tensor toHost() {
    checkOpen();
    return copy(tensor);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    Object array = array();
    closed = true;
    pool.give(tensor.dtype(), tensor.shape().intSize(), array);
    if (mirror != null) {
      mirror.close();
      mirror = null;
    }
  }

  /**
   * Ends this buffer without returning its array to the pool: a run that was donated the buffer
   * handed the array on as one of its outputs. Closing it later is a no-op.
   */
  synchronized Object consume() {
    Object array = array();
    closed = true;
    if (mirror != null) {
      mirror.close();
      mirror = null;
    }
    return array;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("cpu buffer " + tensor.describe() + " is closed");
    }
  }

  static Tensor copy(Tensor t) {
    if (t instanceof Tensor.F32 f) {
      return new Tensor.F32(f.shape(), f.data().clone());
    } else if (t instanceof Tensor.BF16 b) {
      return new Tensor.BF16(b.shape(), b.data().clone());
    } else if (t instanceof Tensor.F64 d) {
      return new Tensor.F64(d.shape(), d.data().clone());
    } else if (t instanceof Tensor.I32 i) {
      return new Tensor.I32(i.shape(), i.data().clone());
    }
    Tensor.Pred p = (Tensor.Pred) t;
    return new Tensor.Pred(p.shape(), p.data().clone());
  }

  /** Wraps a freshly computed array without copying. */
  static CpuBuffer wrap(DType dtype, Shape shape, Object array, ArrayPool pool) {
    return new CpuBuffer(
        switch (dtype) {
          case F32 -> new Tensor.F32(shape, (float[]) array);
          case BF16 -> new Tensor.BF16(shape, (float[]) array);
          case F64 -> new Tensor.F64(shape, (double[]) array);
          case I32 -> new Tensor.I32(shape, (int[]) array);
          case PRED -> new Tensor.Pred(shape, (boolean[]) array);
        },
        pool);
  }
}
