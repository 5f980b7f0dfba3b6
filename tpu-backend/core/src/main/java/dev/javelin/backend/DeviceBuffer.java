package dev.javelin.backend;

/**
 * A tensor that lives on a device between program runs (weights, optimizer state, KV caches), so
 * that only tokens, masks and scalars cross the host boundary per step. Closing frees the device
 * memory.
 */
public interface DeviceBuffer extends AutoCloseable {

  Shape shape();

  DType dtype();

  /** Copies the contents back to the host. */
  Tensor toHost();

  /**
   * Bytes this buffer holds on the chip at mesh position {@code position}: an unsharded buffer
   * holds its whole size at position 0; a sharded one reports each block as the device has it.
   */
  default long bytesOnChip(int position) {
    return position == 0 ? shape().size() * dtype().byteSize() : 0;
  }

  @Override
  void close();
}
