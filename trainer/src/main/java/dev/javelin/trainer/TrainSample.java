package dev.javelin.trainer;

import java.util.Arrays;
import java.util.Objects;

/**
 * One scored response as the trainer consumes it. Arrays are per response token (length R = {@code
 * responseIds.length}); the trainer never mutates them.
 *
 * @param promptUid the prompt group id (the n responses of one prompt share it)
 * @param promptIds prompt token ids, at least one
 * @param responseIds response token ids, at least one
 * @param rolloutLogProbs the sampler's log π_rollout(y_t) at the sampling temperature, (R)
 * @param score the sequence reward (kept for metrics; the loss only uses {@code advantages})
 * @param advantages Â_t per response token, (R); the driver computes them with the grpo library
 * @param oldLogProbs log π_old(y_t), (R), from {@link Trainer#logProbs}; null until computed
 * @param refLogProbs log π_ref(y_t), (R), for the KL loss; null when unused
 */
// Token arrays are shared read-only with the codec and the engine; copying them per access would
// double the batch's memory traffic, so the record documents them as read-only instead.
@SuppressWarnings("ArrayRecordComponent")
public record TrainSample(
    String promptUid,
    int[] promptIds,
    int[] responseIds,
    float[] rolloutLogProbs,
    double score,
    double[] advantages,
    float[] oldLogProbs,
    float[] refLogProbs) {

  /** Validates that every per-token array matches the response length. */
  public TrainSample {
    Objects.requireNonNull(promptUid, "promptUid");
    Objects.requireNonNull(promptIds, "promptIds");
    Objects.requireNonNull(responseIds, "responseIds");
    if (promptIds.length == 0) {
      throw new IllegalArgumentException("sample '" + promptUid + "': promptIds is empty");
    }
    if (responseIds.length == 0) {
      throw new IllegalArgumentException("sample '" + promptUid + "': responseIds is empty");
    }
    int r = responseIds.length;
    requireLength(
        promptUid, "rolloutLogProbs", rolloutLogProbs == null ? -1 : rolloutLogProbs.length, r);
    requireLength(promptUid, "advantages", advantages == null ? -1 : advantages.length, r);
    if (oldLogProbs != null) {
      requireLength(promptUid, "oldLogProbs", oldLogProbs.length, r);
    }
    if (refLogProbs != null) {
      requireLength(promptUid, "refLogProbs", refLogProbs.length, r);
    }
    if (!Double.isFinite(score)) {
      throw new IllegalArgumentException("sample '" + promptUid + "': score is " + score);
    }
  }

  /** A fresh sample whose advantage Â is broadcast over every response token (GRPO's outcome). */
  public static TrainSample of(
      String promptUid,
      int[] promptIds,
      int[] responseIds,
      float[] rolloutLogProbs,
      double score,
      double advantage) {
    double[] adv = new double[responseIds.length];
    Arrays.fill(adv, advantage);
    return new TrainSample(
        promptUid, promptIds, responseIds, rolloutLogProbs, score, adv, null, null);
  }

  /** Prompt plus response length. */
  public int totalLength() {
    return promptIds.length + responseIds.length;
  }

  /** This sample with the old policy's log-probs. */
  public TrainSample withOldLogProbs(float[] old) {
    return new TrainSample(
        promptUid, promptIds, responseIds, rolloutLogProbs, score, advantages, old, refLogProbs);
  }

  /** This sample with the reference policy's log-probs. */
  public TrainSample withRefLogProbs(float[] ref) {
    return new TrainSample(
        promptUid, promptIds, responseIds, rolloutLogProbs, score, advantages, oldLogProbs, ref);
  }

  /** This sample with the advantages Â_t, (R). */
  public TrainSample withAdvantages(double[] adv) {
    return new TrainSample(
        promptUid, promptIds, responseIds, rolloutLogProbs, score, adv, oldLogProbs, refLogProbs);
  }

  private static void requireLength(String uid, String field, int actual, int want) {
    if (actual != want) {
      throw new IllegalArgumentException(
          "sample '"
              + uid
              + "': "
              + field
              + (actual < 0 ? " is missing" : " has " + actual + " entries")
              + ", the response has "
              + want
              + " tokens");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TrainSample s
        && promptUid.equals(s.promptUid)
        && Double.compare(score, s.score) == 0
        && Arrays.equals(promptIds, s.promptIds)
        && Arrays.equals(responseIds, s.responseIds)
        && Arrays.equals(rolloutLogProbs, s.rolloutLogProbs)
        && Arrays.equals(advantages, s.advantages)
        && Arrays.equals(oldLogProbs, s.oldLogProbs)
        && Arrays.equals(refLogProbs, s.refLogProbs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(promptUid, score, Arrays.hashCode(promptIds), Arrays.hashCode(responseIds));
  }

  @Override
  public String toString() {
    return "TrainSample["
        + promptUid
        + ", prompt="
        + promptIds.length
        + ", response="
        + responseIds.length
        + ", score="
        + score
        + "]";
  }
}
