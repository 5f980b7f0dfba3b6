package dev.javelin.recipes.ray;

import io.ray.api.ObjectRef;
import io.ray.api.Ray;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Waits for Ray results and unwraps Ray's exception wrappers into the actor's own error. */
final class RayCalls {
  /**
   * Whether this JVM's Ray can free objects explicitly: the Maven jars (local mode) and clusters up
   * to at least 2.47 can; a 2.60 cluster's {@code ray_dist.jar} has no {@code free} and releases an
   * object once the last driver-side reference is garbage-collected.
   */
  private static final boolean CAN_FREE = hasFree();

  private RayCalls() {}

  static <T> T get(ObjectRef<T> ref) {
    try {
      return Ray.get(ref);
    } catch (RuntimeException e) {
      throw unwrap(e);
    } finally {
      free(List.of(ref));
    }
  }

  /**
   * Runs {@code call} with {@code arg} passed by reference, waits for its result, then frees both.
   * Ray's local mode (2.9.3 to 2.39.0) copies any by-value task argument over 100 KiB into its
   * object store and never frees it (measured: 100 actor calls with a 1 MB {@code byte[]} argument
   * keep 100 MB of heap; with this helper, none), so large payloads (encoded batches, requests) go
   * through here.
   */
  static <R> R callWith(byte[] arg, Function<ObjectRef<byte[]>, ObjectRef<R>> call) {
    ObjectRef<byte[]> ref = Ray.put(arg);
    try {
      return get(call.apply(ref));
    } finally {
      free(List.of(ref));
    }
  }

  /** Waits for a result that a later {@link #get}/{@link #getAll} will read (and free). */
  static void await(ObjectRef<?> ref) {
    try {
      Ray.get(ref);
    } catch (RuntimeException e) {
      throw unwrap(e);
    }
  }

  static <T> List<T> getAll(List<ObjectRef<T>> refs) {
    try {
      return Ray.get(refs);
    } catch (RuntimeException e) {
      throw unwrap(e);
    } finally {
      free(refs);
    }
  }

  /**
   * Drops results the driver has consumed. Ray 2.9.3's local-mode object store keeps every task
   * result and put until it is freed explicitly (it ignores reference counts), which leaked ~20 MB
   * per GRPO step of weight snapshots and rollouts until the heap ran out (2.39.0's local mode
   * still keeps by-value arguments, see {@link #callWith}, so freeing stays).
   */
  static void free(List<? extends ObjectRef<?>> refs) {
    if (CAN_FREE) {
      Ray.internal().free(new ArrayList<>(refs), false);
    }
  }

  private static boolean hasFree() {
    try {
      io.ray.api.runtime.RayRuntime.class.getMethod("free", List.class, boolean.class);
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /** The innermost runtime exception thrown inside the actor, so messages stay readable. */
  static RuntimeException unwrap(RuntimeException e) {
    Throwable t = e;
    RuntimeException last = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
      if (t instanceof RuntimeException r && !r.getClass().getName().startsWith("io.ray.")) {
        last = r;
      }
    }
    return last;
  }
}
