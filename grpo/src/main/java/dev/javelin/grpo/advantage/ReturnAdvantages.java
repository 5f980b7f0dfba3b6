package dev.javelin.grpo.advantage;

import dev.javelin.grpo.AdvantageInput;
import dev.javelin.grpo.AdvantageResult;
import dev.javelin.grpo.AlgorithmConfig;
import java.util.List;

/** Estimators built on token-level returns and batch whitening (REINFORCE++, ReMax). */
public final class ReturnAdvantages {
  private ReturnAdvantages() {}

  /**
   * REINFORCE++ (Hu 2025): G_t = r_t + γ·G_{t+1}, the carry reset on padding, then Â = whiten(G)
   * over all valid tokens of the batch, zero on padding.
   */
  public static AdvantageResult reinforcePlusPlus(AdvantageInput in, AlgorithmConfig c) {
    int cols = in.cols();
    double[] r = in.tokenRewards();
    boolean[] m = in.mask();
    double[] returns = new double[r.length]; // (B, T)
    for (int row = 0; row < in.rows(); row++) {
      double running = 0.0;
      for (int t = cols - 1; t >= 0; t--) {
        int i = row * cols + t;
        running = r[i] + c.gamma() * running;
        returns[i] = running;
        running = m[i] ? running : 0.0;
      }
    }
    return new AdvantageResult(Whitening.whiten(returns, m), returns);
  }

  /**
   * REINFORCE++ with baseline: Â = whiten(s_i − μ_G) over all valid tokens, with μ = 0 for a group
   * of one.
   */
  public static AdvantageResult reinforcePlusPlusBaseline(AdvantageInput in, AlgorithmConfig c) {
    double[] s = in.sequenceScores();
    double[] centred = new double[in.rows()]; // (B,)
    for (List<Integer> g : Groups.byUid(in.uids()).values()) {
      double mu = g.size() == 1 ? 0.0 : Groups.mean(s, g);
      for (int r : g) {
        centred[r] = s[r] - mu;
      }
    }
    double[] adv = Whitening.whiten(Groups.broadcast(centred, in.mask(), in.cols()), in.mask());
    return new AdvantageResult(adv, adv.clone());
  }

  /**
   * ReMax (Li et al. 2023): G_t = Σ_{t' ≥ t} m_t'·r_t' and Â_t = G_t − b_i·m_t, where b_i is the
   * reward of the sampler's greedy response to the same prompt.
   */
  public static AdvantageResult remax(AdvantageInput in, AlgorithmConfig c) {
    if (in.rewardBaselines() == null) {
      throw new IllegalArgumentException(
          "remax needs rewardBaselines: the greedy response's reward for every row");
    }
    int cols = in.cols();
    double[] returns = new double[in.rows() * cols]; // (B, T)
    double[] adv = new double[returns.length]; // (B, T)
    for (int row = 0; row < in.rows(); row++) {
      double sum = 0.0;
      for (int t = cols - 1; t >= 0; t--) {
        int i = row * cols + t;
        sum += in.mask()[i] ? in.tokenRewards()[i] : 0.0;
        returns[i] = sum;
        adv[i] = sum - (in.mask()[i] ? in.rewardBaselines()[row] : 0.0);
      }
    }
    return new AdvantageResult(adv, returns);
  }
}
