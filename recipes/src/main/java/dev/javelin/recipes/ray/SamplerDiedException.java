package dev.javelin.recipes.ray;

import io.ray.api.exception.RayActorException;
import io.ray.api.exception.RayWorkerException;

/**
 * A sampler call failed because the sampler's process died (the actor is restarting or gone) or
 * because it already restarted and holds no weights ({@link StaleSamplerException}): either way the
 * pool reloads the current weights into it and retries its chunk.
 */
final class SamplerDiedException extends RuntimeException {
  SamplerDiedException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * {@code e} as a {@link SamplerDiedException} when it means a dead or restarted sampler, else the
   * innermost non-Ray runtime exception (the actor's own error, so messages stay readable).
   */
  static RuntimeException classify(RuntimeException e) {
    RuntimeException inner = e;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RayActorException || t instanceof RayWorkerException) {
        return new SamplerDiedException("sampler process died: " + t.getMessage(), e);
      }
      if (t instanceof StaleSamplerException
          || String.valueOf(t.getMessage()).contains(StaleSamplerException.class.getName())) {
        return new SamplerDiedException("sampler restarted: " + t.getMessage(), e);
      }
      if (t instanceof RuntimeException r && !r.getClass().getName().startsWith("io.ray.")) {
        inner = r;
      }
    }
    return inner;
  }
}
