package dev.javelin.sampler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * One response to generate. The {@code seed} alone determines the random draws for this request, so
 * the result does not depend on which slot or sampler serves it. The {@code n} responses of one
 * prompt are {@code n} requests with the same {@code promptUid} and different ids and seeds.
 *
 * @param requestId unique id of this response request
 * @param promptUid id shared by the requests of one prompt (GRPO groups by it)
 * @param promptIds prompt token ids, non-empty
 * @param params how to sample
 * @param seed per-request RNG seed
 */
public record GenerationRequest(
    String requestId, String promptUid, int[] promptIds, SamplingParams params, long seed) {

  public GenerationRequest {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(promptUid, "promptUid");
    Objects.requireNonNull(params, "params");
    if (promptIds == null || promptIds.length == 0) {
      throw new IllegalArgumentException("promptIds must be non-empty (request " + requestId + ")");
    }
    promptIds = promptIds.clone();
    for (int id : promptIds) {
      if (id < 0) {
        throw new IllegalArgumentException(
            "promptIds must be >= 0, got " + id + " (request " + requestId + ")");
      }
    }
  }

  /**
   * The {@code n} requests of one prompt (GRPO's group): ids {@code promptUid#j}, and seeds drawn
   * from {@code seed} so that each response has its own reproducible stream.
   */
  public static List<GenerationRequest> group(
      String promptUid, int[] promptIds, SamplingParams params, int n, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1, got " + n);
    }
    SplittableRandom seeds = new SplittableRandom(seed);
    List<GenerationRequest> out = new ArrayList<>(n);
    for (int j = 0; j < n; j++) {
      out.add(
          new GenerationRequest(
              promptUid + "#" + j, promptUid, promptIds, params, seeds.nextLong()));
    }
    return out;
  }

  @Override
  public int[] promptIds() {
    return promptIds.clone();
  }

  /** Prompt length without copying. */
  public int promptLength() {
    return promptIds.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GenerationRequest r
        && requestId.equals(r.requestId)
        && promptUid.equals(r.promptUid)
        && Arrays.equals(promptIds, r.promptIds)
        && params.equals(r.params)
        && seed == r.seed;
  }

  @Override
  public int hashCode() {
    return Objects.hash(requestId, promptUid, Arrays.hashCode(promptIds), params, seed);
  }

  @Override
  public String toString() {
    return "GenerationRequest[requestId="
        + requestId
        + ", promptUid="
        + promptUid
        + ", promptIds="
        + Arrays.toString(promptIds)
        + ", params="
        + params
        + ", seed="
        + seed
        + "]";
  }
}
