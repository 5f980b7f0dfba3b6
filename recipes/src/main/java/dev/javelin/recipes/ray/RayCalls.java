package dev.javelin.recipes.ray;

import io.ray.api.ObjectRef;
import io.ray.api.Ray;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Waits for Ray results and unwraps Ray's exception wrappers into the actor's own error. */
final class RayCalls {
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
   * Ray 2.9's local mode copies any by-value task argument over 100 KiB into its object store and
   * never frees it (measured: 100 actor calls with a 1 MB {@code byte[]} argument keep 100 MB of
   * heap; with this helper, none), so large payloads (encoded batches, requests) go through here.
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
   * Drops results the driver has consumed. Ray 2.9's local-mode object store keeps every task
   * result and put until it is freed explicitly (it ignores reference counts), which leaked ~20 MB
   * per GRPO step of weight snapshots and rollouts until the heap ran out.
   */
  static void free(List<? extends ObjectRef<?>> refs) {
    Ray.internal().free(new ArrayList<>(refs), false);
  }

  /** The innermost runtime exception thrown inside the actor, so messages stay readable. */
  private static RuntimeException unwrap(RuntimeException e) {
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
