package dev.javelin.recipes.ray;

import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The retry rule for one sampler's chunk of requests: a result that fails its check is counted and
 * generated again; a dead sampler is recovered (restarted, current weights reloaded) and its chunk
 * generated again; after {@code maxAttempts} tries the step fails with the last reason. Only this
 * chunk is repeated, so every request ends with exactly one rollout.
 *
 * @param sampler the sampler's index, for messages
 * @param requests the chunk's size, for messages
 * @param maxAttempts tries before giving up, at least 1
 */
record ChunkRetry(int sampler, int requests, int maxAttempts) {
  private static final Logger LOG = Logger.getLogger(ChunkRetry.class.getName());

  ChunkRetry {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
    }
  }

  /** What one chunk needs from its pool. */
  interface Calls {
    /** The chunk's bytes from try {@code attempt} (1 = the call already in flight). */
    byte[] generate(int attempt);

    /** Brings a dead or restarted sampler back to the current weights. */
    void recover(SamplerDiedException e);

    /** Counts a rejected result. */
    void rejected(MalformedRolloutException e);
  }

  /** The checked result of the chunk. */
  <T> T run(Calls calls, Function<byte[], T> check) {
    for (int attempt = 1; ; attempt++) {
      RuntimeException failure;
      try {
        return check.apply(calls.generate(attempt));
      } catch (MalformedRolloutException e) {
        LOG.warning("sampler " + sampler + " returned a malformed result: " + e.getMessage());
        calls.rejected(e);
        failure = e;
      } catch (SamplerDiedException e) {
        failure = e;
        calls.recover(e);
      }
      if (attempt >= maxAttempts) {
        throw new IllegalStateException(
            "sampler "
                + sampler
                + " failed its "
                + requests
                + " requests "
                + attempt
                + " times; last: "
                + failure.getMessage(),
            failure);
      }
    }
  }
}
