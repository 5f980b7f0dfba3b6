package dev.javelin.weightsync;

import java.util.List;

/**
 * The sampler's gatekeeper: accepts a snapshot only if it is newer than what is loaded, has exactly
 * the expected layout, and matches its checksum. A rejected snapshot changes nothing.
 */
public final class SnapshotReceiver {
  private final List<TensorEntry> expectedLayout;
  private long loadedVersion;

  /**
   * @param expectedLayout the model's tensors (names, types, shapes) in snapshot order
   * @param loadedVersion the version already loaded (-1 for none)
   */
  public SnapshotReceiver(List<TensorEntry> expectedLayout, long loadedVersion) {
    this.expectedLayout = List.copyOf(expectedLayout);
    this.loadedVersion = loadedVersion;
  }

  /** A receiver that takes the layout of a first, trusted snapshot (e.g. the initial weights). */
  public static SnapshotReceiver expecting(WeightSnapshot reference) {
    return new SnapshotReceiver(reference.entries(), -1);
  }

  public long loadedVersion() {
    return loadedVersion;
  }

  /**
   * Accepts any version next, older ones too: the sender went back to an earlier version (a trainer
   * restarted from its last checkpoint); the tensors stay as they are until then.
   */
  public void rewind() {
    loadedVersion = -1;
  }

  /**
   * Checks the snapshot and records it as loaded; the caller then copies the tensors into its
   * model.
   *
   * @throws SnapshotRejectedException with the reason when the snapshot must not be loaded
   */
  public void accept(WeightSnapshot s) {
    accept(s, expectedLayout);
  }

  /**
   * As above against {@code layout} instead of the receiver's own: for a model whose snapshots come
   * in more than one {@link SnapshotContent}.
   */
  public void accept(WeightSnapshot s, List<TensorEntry> layout) {
    if (s.version() <= loadedVersion) {
      throw new SnapshotRejectedException(
          SnapshotRejectedException.Reason.STALE,
          "snapshot v" + s.version() + " is not newer than loaded v" + loadedVersion);
    }
    checkLayout(s, layout);
    long actual = s.computeChecksum();
    if (actual != s.checksum()) {
      throw new SnapshotRejectedException(
          SnapshotRejectedException.Reason.CHECKSUM,
          "snapshot v"
              + s.version()
              + " checksum "
              + Long.toHexString(actual)
              + " != recorded "
              + Long.toHexString(s.checksum()));
    }
    loadedVersion = s.version();
  }

  private static void checkLayout(WeightSnapshot s, List<TensorEntry> expectedLayout) {
    List<TensorEntry> got = s.entries();
    if (got.size() != expectedLayout.size()) {
      throw new SnapshotRejectedException(
          SnapshotRejectedException.Reason.LAYOUT,
          "snapshot v"
              + s.version()
              + " has "
              + got.size()
              + " tensors, model has "
              + expectedLayout.size());
    }
    for (int i = 0; i < got.size(); i++) {
      if (!got.get(i).sameLayout(expectedLayout.get(i))) {
        throw new SnapshotRejectedException(
            SnapshotRejectedException.Reason.LAYOUT,
            "tensor " + i + " is " + got.get(i) + ", expected " + expectedLayout.get(i));
      }
    }
  }
}
