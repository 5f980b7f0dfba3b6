package dev.javelin.weightsync;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A test transport inside one JVM. With {@code encode} set it stores the byte form and each fetch
 * decodes a zero-copy view, exercising exactly what crosses a process boundary; otherwise it hands
 * out the snapshot object itself.
 */
public final class InProcessTransport implements WeightTransport {
  private final boolean encode;
  private final ConcurrentMap<Long, Object> live = new ConcurrentHashMap<>();

  public InProcessTransport(boolean encode) {
    this.encode = encode;
  }

  @Override
  public SnapshotHandle publish(WeightSnapshot snapshot) {
    Object stored = encode ? SnapshotCodec.encode(snapshot) : snapshot;
    if (live.putIfAbsent(snapshot.version(), stored) != null) {
      throw new IllegalStateException("version " + snapshot.version() + " was already published");
    }
    return new SnapshotHandle(snapshot.version(), snapshot.version());
  }

  @Override
  public WeightSnapshot fetch(SnapshotHandle handle) {
    Object stored = live.get(handle.version());
    if (stored == null) {
      throw new IllegalStateException("snapshot v" + handle.version() + " was released");
    }
    return stored instanceof ByteBuffer bytes
        ? SnapshotCodec.decode(bytes)
        : (WeightSnapshot) stored;
  }

  @Override
  public void release(SnapshotHandle handle) {
    live.remove(handle.version());
  }

  @Override
  public int liveVersions() {
    return live.size();
  }
}
