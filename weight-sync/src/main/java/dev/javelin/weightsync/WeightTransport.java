package dev.javelin.weightsync;

/**
 * Moves snapshots from the trainer to samplers. Publish once per version; every sampler fetches the
 * same handle; the publisher releases a version once a newer one is out.
 */
public interface WeightTransport extends AutoCloseable {

  /** Makes the snapshot available and returns the handle samplers fetch it by. */
  SnapshotHandle publish(WeightSnapshot snapshot);

  /** Returns the snapshot behind a handle; fails clearly if it was released. */
  WeightSnapshot fetch(SnapshotHandle handle);

  /** Frees a published version. Releasing twice is harmless. */
  void release(SnapshotHandle handle);

  /** Number of versions currently held. */
  int liveVersions();

  @Override
  default void close() {}
}
