package dev.javelin.recipes.ray;

import dev.javelin.weightsync.SnapshotCodec;
import dev.javelin.weightsync.SnapshotHandle;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WeightTransport;
import io.ray.api.ObjectRef;
import io.ray.api.Ray;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Weight sync through Ray's object store: a version is encoded once ({@link SnapshotCodec}) and put
 * in the store; every sampler receives the same {@link ObjectRef} as a task argument, so Ray moves
 * the bytes (shared memory on one node, a single transfer per node in a cluster) and the driver
 * never copies them per sampler. Releasing a version drops the driver's reference, which lets Ray
 * free the object once no task holds it.
 */
public final class RayObjectStoreTransport implements WeightTransport {
  private final Map<Long, ObjectRef<byte[]>> live = new ConcurrentHashMap<>();

  @Override
  public SnapshotHandle publish(WeightSnapshot snapshot) {
    ObjectRef<byte[]> ref = Ray.put(SnapshotCodec.toArray(snapshot));
    if (live.putIfAbsent(snapshot.version(), ref) != null) {
      throw new IllegalStateException("version " + snapshot.version() + " was already published");
    }
    return new SnapshotHandle(snapshot.version(), ref);
  }

  @Override
  public WeightSnapshot fetch(SnapshotHandle handle) {
    return SnapshotCodec.decode(ByteBuffer.wrap(ref(handle).get()));
  }

  /** The object reference behind a live handle, to pass as a task argument. */
  public ObjectRef<byte[]> ref(SnapshotHandle handle) {
    ObjectRef<byte[]> ref = live.get(handle.version());
    if (ref == null) {
      throw new IllegalStateException("snapshot v" + handle.version() + " was released");
    }
    return ref;
  }

  @Override
  public void release(SnapshotHandle handle) {
    ObjectRef<byte[]> ref = live.remove(handle.version());
    if (ref != null) {
      RayCalls.free(List.of(ref));
    }
  }

  @Override
  public int liveVersions() {
    return live.size();
  }
}
