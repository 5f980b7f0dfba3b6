package dev.javelin.weightsync;

import java.util.Optional;

/**
 * The trainer's side: publishes each new version once and frees the previous one, so at most one
 * version (plus any in flight) is held.
 */
public final class WeightPublisher {
  private final WeightTransport transport;
  private SnapshotHandle current;

  public WeightPublisher(WeightTransport transport) {
    this.transport = transport;
  }

  /** Publishes a snapshot newer than the last one and releases the last one. */
  public SnapshotHandle publish(WeightSnapshot snapshot) {
    if (current != null && snapshot.version() <= current.version()) {
      throw new IllegalArgumentException(
          "cannot publish v" + snapshot.version() + " after v" + current.version());
    }
    SnapshotHandle next = transport.publish(snapshot);
    SnapshotHandle previous = current;
    current = next;
    if (previous != null) {
      transport.release(previous);
    }
    return next;
  }

  /**
   * Lets the next {@link #publish} be any version, not only a newer one: the trainer went back to a
   * checkpoint (a restarted trainer gang) and publishes that checkpoint's version again.
   */
  public void rewind() {
    if (current != null) {
      transport.release(current);
      current = null;
    }
  }

  /** The latest published handle, for samplers that restart and must catch up. */
  public Optional<SnapshotHandle> current() {
    return Optional.ofNullable(current);
  }
}
