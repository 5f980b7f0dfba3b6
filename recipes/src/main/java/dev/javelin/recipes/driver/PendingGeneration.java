package dev.javelin.recipes.driver;

import dev.javelin.sampler.GenerationResult;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * One batch's generation, started by {@link GenerationLauncher} and possibly still running.
 *
 * @param batch what is being generated
 * @param result the samplers' answer
 */
record PendingGeneration(DrawnBatch batch, Future<Timed> result) {

  /** A generation result and how long the samplers took for it. */
  record Timed(GenerationResult result, double seconds) {}

  /** Waits for the result; a sampler's failure is rethrown as it was. */
  Timed await() {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for generation", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException r) {
        throw r;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("generation failed", c);
    }
  }
}
