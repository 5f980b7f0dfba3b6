package dev.javelin.grpo.advantage;

import dev.javelin.grpo.AdvantageInput;
import dev.javelin.grpo.AdvantageResult;
import dev.javelin.grpo.AlgorithmConfig;
import dev.javelin.grpo.Shapes;
import java.util.List;
import java.util.Map;

/**
 * Outcome-only estimators with a per-group baseline. Each response i has a sequence score s_i = Σ_t
 * r_it; its group G(i) holds the responses of the same prompt uid, n = |G(i)|. The scalar advantage
 * is broadcast over the response mask.
 */
public final class GroupAdvantages {
  private GroupAdvantages() {}

  /**
   * GRPO: Â_i = (s_i − μ_G)/(σ_G + ε) with the unbiased σ_G, or Dr.GRPO's Â_i = s_i − μ_G when
   * {@code norm_adv_by_std_in_grpo} is false. A group of one has μ = 0, σ = 1.
   */
  public static AdvantageResult grpo(AdvantageInput in, AlgorithmConfig c) {
    double[] s = in.sequenceScores();
    double[] a = new double[in.rows()]; // (B,)
    for (List<Integer> g : Groups.byUid(in.uids()).values()) {
      double mu = g.size() == 1 ? 0.0 : Groups.mean(s, g);
      double sigma = g.size() == 1 ? 1.0 : Groups.std(s, g);
      for (int r : g) {
        a[r] = c.normAdvByStdInGrpo() ? (s[r] - mu) / (sigma + AlgorithmConfig.EPSILON) : s[r] - mu;
      }
    }
    return outcome(a, in);
  }

  /**
   * GRPO for pass@k (Chen et al. 2025): only the best response of each group learns, with Â = s_max
   * − s_second (divided by σ_G + ε when normalising). Needs n ≥ 2. On ties the first best row gets
   * it (and then Â = 0 anyway).
   */
  public static AdvantageResult grpoPassK(AdvantageInput in, AlgorithmConfig c) {
    double[] s = in.sequenceScores();
    double[] a = new double[in.rows()]; // (B,)
    for (Map.Entry<String, List<Integer>> e : Groups.byUid(in.uids()).entrySet()) {
      List<Integer> g = e.getValue();
      if (g.size() < 2) {
        throw new IllegalArgumentException(
            "grpo_passk needs at least 2 responses per prompt; uid '" + e.getKey() + "' has 1");
      }
      int best = g.get(0);
      for (int r : g) {
        best = s[r] > s[best] ? r : best;
      }
      double second = Double.NEGATIVE_INFINITY;
      for (int r : g) {
        second = r != best ? Math.max(second, s[r]) : second;
      }
      double adv = s[best] - second;
      a[best] = c.normAdvByStdInGrpo() ? adv / (Groups.std(s, g) + AlgorithmConfig.EPSILON) : adv;
    }
    return outcome(a, in);
  }

  /**
   * RLOO (Ahmadian et al. 2024): the leave-one-out baseline, Â_i = n/(n−1)·(s_i − μ_G) = s_i −
   * mean_{j≠i} s_j. A group of one keeps Â_i = s_i (as in VeRL's non-vectorised RLOO).
   */
  public static AdvantageResult rloo(AdvantageInput in, AlgorithmConfig c) {
    double[] s = in.sequenceScores();
    double[] a = new double[in.rows()]; // (B,)
    for (List<Integer> g : Groups.byUid(in.uids()).values()) {
      int n = g.size();
      double mu = n == 1 ? 0.0 : Groups.mean(s, g);
      for (int r : g) {
        a[r] = n > 1 ? s[r] * n / (n - 1) - mu * n / (n - 1) : s[r];
      }
    }
    return outcome(a, in);
  }

  /**
   * OPO (Hao et al. 2025): the length-weighted baseline b_G = Σ_j |o_j|·s_j / Σ_j |o_j|, Â_i = s_i
   * − b_G; 0 for a group of one. A group whose responses are all empty gets b = 0 (VeRL would
   * divide by zero).
   */
  public static AdvantageResult opo(AdvantageInput in, AlgorithmConfig c) {
    double[] s = in.sequenceScores();
    double[] a = new double[in.rows()]; // (B,)
    for (List<Integer> g : Groups.byUid(in.uids()).values()) {
      double num = 0.0;
      double den = 0.0;
      for (int r : g) {
        int len = Shapes.rowLength(in.mask(), in.cols(), r);
        num += len * s[r];
        den += len;
      }
      double baseline = g.size() == 1 || den == 0.0 ? 0.0 : num / den;
      for (int r : g) {
        a[r] = s[r] - baseline;
      }
    }
    return outcome(a, in);
  }

  /**
   * GPG (Chu et al. 2025): Â_i = α·(s_i − μ_G)/F_norm with α = B / max(#{i : s_i ≠ 0}, 1) and
   * F_norm = 1; μ = 0 for a group of one.
   */
  public static AdvantageResult gpg(AdvantageInput in, AlgorithmConfig c) {
    double[] s = in.sequenceScores();
    int nonZero = 0;
    for (double v : s) {
      nonZero += v != 0.0 ? 1 : 0;
    }
    double alpha = (double) in.rows() / Math.max(nonZero, 1);
    double[] a = new double[in.rows()]; // (B,)
    for (List<Integer> g : Groups.byUid(in.uids()).values()) {
      double mu = g.size() == 1 ? 0.0 : Groups.mean(s, g);
      for (int r : g) {
        a[r] = alpha * (s[r] - mu);
      }
    }
    return outcome(a, in);
  }

  private static AdvantageResult outcome(double[] perRow, AdvantageInput in) {
    double[] adv = Groups.broadcast(perRow, in.mask(), in.cols());
    return new AdvantageResult(adv, adv.clone());
  }
}
