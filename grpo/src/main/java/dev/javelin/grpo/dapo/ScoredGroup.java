package dev.javelin.grpo.dapo;

/**
 * The responses of one prompt after scoring, as the dynamic sampler sees them.
 *
 * @param uid the prompt uid
 * @param metric the filter metric of each response (e.g. accuracy), (n,)
 * @param payload whatever the driver carries along (rollouts, rewards); returned untouched
 * @param <G> the payload type
 */
@SuppressWarnings("ArrayRecordComponent") // read-only per-response metric values
public record ScoredGroup<G>(String uid, double[] metric, G payload) {

  /** Validates that the group is non-empty. */
  public ScoredGroup {
    if (uid == null) {
      throw new IllegalArgumentException("uid must not be null");
    }
    if (metric == null || metric.length == 0) {
      throw new IllegalArgumentException("group '" + uid + "' has no responses");
    }
  }

  /**
   * Whether the group carries a learning signal: its metric is not the same for every response, or
   * it has a single response (kept, as in VeRL). VeRL tests np.std > 0; we compare the values
   * exactly, so rounding in the std of equal values cannot keep a flat group.
   */
  public boolean informative() {
    for (double v : metric) {
      if (Double.compare(v, metric[0]) != 0) {
        return true;
      }
    }
    return metric.length == 1;
  }
}
