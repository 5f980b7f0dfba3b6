package dev.javelin.grpo;

/**
 * What an advantage estimator reads: B responses padded to T tokens, row-major (B, T).
 *
 * @param rows B
 * @param cols T
 * @param tokenRewards per-token rewards, (B, T): the outcome score on the last valid token, minus
 *     β·KL on every token when {@code use_kl_in_reward} is on
 * @param mask response mask, (B, T)
 * @param uids prompt uid of each response, (B,): responses with equal uid form a group
 * @param rewardBaselines ReMax's per-response baseline (the greedy response's reward), (B,); null
 *     for other estimators
 */
// Flat row-major buffers shared with the trainer and device; copying B*T doubles per access
// would defeat the point, so these records expose their arrays and document them as read-only.
@SuppressWarnings("ArrayRecordComponent")
public record AdvantageInput(
    int rows,
    int cols,
    double[] tokenRewards,
    boolean[] mask,
    String[] uids,
    double[] rewardBaselines) {

  /** Validates shapes. */
  public AdvantageInput {
    Shapes.checkDims(rows, cols);
    Shapes.checkRequired("tokenRewards", tokenRewards, rows, cols);
    Shapes.checkMask(mask, rows, cols);
    if (uids == null || uids.length != rows) {
      throw new IllegalArgumentException(
          "uids must have one entry per row ("
              + rows
              + "), got "
              + (uids == null ? "null" : uids.length));
    }
    for (int r = 0; r < rows; r++) {
      if (uids[r] == null) {
        throw new IllegalArgumentException("uids[" + r + "] must not be null");
      }
    }
    if (rewardBaselines != null && rewardBaselines.length != rows) {
      throw new IllegalArgumentException(
          "rewardBaselines must have one entry per row ("
              + rows
              + "), got "
              + rewardBaselines.length);
    }
  }

  /**
   * Places each response's outcome score on its last valid token, as VeRL's reward managers do. A
   * response with no valid token gets its score on column T−1 (Python's index −1 in VeRL).
   */
  public static AdvantageInput fromScores(
      int rows, int cols, double[] scores, boolean[] mask, String[] uids) {
    Shapes.checkDims(rows, cols);
    Shapes.checkMask(mask, rows, cols);
    if (scores == null || scores.length != rows) {
      throw new IllegalArgumentException("scores must have one entry per row (" + rows + ")");
    }
    double[] tokenRewards = new double[rows * cols]; // (B, T)
    for (int r = 0; r < rows; r++) {
      int len = Shapes.rowLength(mask, cols, r);
      tokenRewards[r * cols + (len > 0 ? len - 1 : cols - 1)] = scores[r];
    }
    return new AdvantageInput(rows, cols, tokenRewards, mask, uids, null);
  }

  /** This input with ReMax's greedy baselines. */
  public AdvantageInput withRewardBaselines(double[] baselines) {
    return new AdvantageInput(rows, cols, tokenRewards, mask, uids, baselines);
  }

  /** s_i = Σ_t r_it, the sequence score (VeRL sums over all T, masked or not). */
  public double[] sequenceScores() {
    double[] s = new double[rows]; // (B,)
    for (int r = 0; r < rows; r++) {
      for (int t = r * cols, end = t + cols; t < end; t++) {
        s[r] += tokenRewards[t];
      }
    }
    return s;
  }
}
