package dev.javelin.recipes.ray;

import io.ray.api.ObjectRef;
import io.ray.api.Ray;
import java.util.List;

/** Waits for Ray results and unwraps Ray's exception wrappers into the actor's own error. */
final class RayCalls {
  private RayCalls() {}

  static <T> T get(ObjectRef<T> ref) {
    try {
      return Ray.get(ref);
    } catch (RuntimeException e) {
      throw unwrap(e);
    }
  }

  static <T> List<T> getAll(List<ObjectRef<T>> refs) {
    try {
      return Ray.get(refs);
    } catch (RuntimeException e) {
      throw unwrap(e);
    }
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
