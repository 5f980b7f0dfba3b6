package dev.javelin.sampler;

import java.util.Arrays;
import java.util.Objects;

/**
 * One generated response.
 *
 * @param requestId the request's id
 * @param promptUid the request's prompt group id
 * @param promptIds prompt token ids
 * @param responseIds generated token ids (ends with the stop token when {@code finish == STOP})
 * @param logProbs log π(y_t | x, y_&lt;t) of each response token at the sampling temperature, the
 *     same quantity {@code PolicyModel.logProbs} computes (greedy requests report them at τ = 1)
 * @param finish why it ended
 * @param policyVersion weight version that generated it
 * @param seconds wall time from admission to finish
 */
public record Rollout(
    String requestId,
    String promptUid,
    int[] promptIds,
    int[] responseIds,
    float[] logProbs,
    FinishReason finish,
    long policyVersion,
    double seconds) {

  public Rollout {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(promptUid, "promptUid");
    Objects.requireNonNull(finish, "finish");
    Objects.requireNonNull(promptIds, "promptIds");
    Objects.requireNonNull(responseIds, "responseIds");
    Objects.requireNonNull(logProbs, "logProbs");
    if (logProbs.length != responseIds.length) {
      throw new IllegalArgumentException(
          "logProbs length " + logProbs.length + " != responseIds length " + responseIds.length);
    }
    promptIds = promptIds.clone();
    responseIds = responseIds.clone();
    logProbs = logProbs.clone();
  }

  @Override
  public int[] promptIds() {
    return promptIds.clone();
  }

  @Override
  public int[] responseIds() {
    return responseIds.clone();
  }

  @Override
  public float[] logProbs() {
    return logProbs.clone();
  }

  /** Number of prompt tokens. */
  public int promptLength() {
    return promptIds.length;
  }

  /** Number of response tokens. */
  public int responseLength() {
    return responseIds.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Rollout r
        && requestId.equals(r.requestId)
        && promptUid.equals(r.promptUid)
        && Arrays.equals(promptIds, r.promptIds)
        && Arrays.equals(responseIds, r.responseIds)
        && Arrays.equals(logProbs, r.logProbs)
        && finish == r.finish
        && policyVersion == r.policyVersion
        && Double.compare(seconds, r.seconds) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        requestId,
        promptUid,
        Arrays.hashCode(promptIds),
        Arrays.hashCode(responseIds),
        Arrays.hashCode(logProbs),
        finish,
        policyVersion,
        seconds);
  }

  @Override
  public String toString() {
    return "Rollout[requestId="
        + requestId
        + ", promptUid="
        + promptUid
        + ", prompt="
        + promptIds.length
        + " tokens, response="
        + Arrays.toString(responseIds)
        + ", finish="
        + finish
        + ", policyVersion="
        + policyVersion
        + ", seconds="
        + seconds
        + "]";
  }
}
