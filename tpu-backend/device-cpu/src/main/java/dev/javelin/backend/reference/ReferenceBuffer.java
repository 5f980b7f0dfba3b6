package dev.javelin.backend.reference;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;

/** A reference-device buffer: an immutable host value. Closing is a no-op besides marking it. */
final class ReferenceBuffer implements DeviceBuffer {
  private final Value value;
  private volatile boolean closed;

  ReferenceBuffer(Value value) {
    this.value = value;
  }

  Value value() {
    if (closed) {
      throw new IllegalStateException("buffer " + value.dtype() + value.shape() + " is closed");
    }
    return value;
  }

  @Override
  public Shape shape() {
    return value.shape();
  }

  @Override
  public DType dtype() {
    return value.dtype();
  }

  @Override
  public Tensor toHost() {
    return value().toTensor();
  }

  @Override
  public void close() {
    closed = true;
  }
}
