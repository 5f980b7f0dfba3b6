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

  @Override
  void close();
}
