package dev.javelin.grpo.correction;

import dev.javelin.grpo.Masked;
import dev.javelin.grpo.Shapes;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Rejection sampling: clears mask entries whose divergence breaks a {@link RejectionRule}. */
final class Rejection {
  private Rejection() {}

  /**
   * Returns the mask with rejected tokens cleared and records, per rule and overall, {@code
   * rollout_rs_*_masked_fraction} (tokens) and {@code rollout_rs_*_seq_masked_fraction}.
   */
  static boolean[] apply(
      double[] logRatio,
      boolean[] mask,
      int rows,
      int cols,
      List<RejectionRule> rules,
      Map<String, Double> metrics) {
    boolean[] combined = new boolean[mask.length]; // (B, T) all rules pass
    Arrays.fill(combined, true);
    for (RejectionRule rule : rules) {
      boolean[] keep = keepMask(logRatio, mask, rows, cols, rule);
      String name = "rollout_rs_" + rule.name();
      metrics.put(name + "_masked_fraction", rejectedFraction(keep, mask));
      metrics.put(name + "_seq_masked_fraction", rejectedSeqFraction(keep, mask, rows, cols, true));
      for (int i = 0; i < combined.length; i++) {
        combined[i] &= keep[i];
      }
    }
    metrics.put("rollout_rs_masked_fraction", rejectedFraction(combined, mask));
    metrics.put(
        "rollout_rs_seq_masked_fraction", rejectedSeqFraction(combined, mask, rows, cols, false));
    boolean[] out = new boolean[mask.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = mask[i] && combined[i];
    }
    return out;
  }

  private static boolean[] keepMask(
      double[] logRatio, boolean[] mask, int rows, int cols, RejectionRule rule) {
    double[] stat = new double[logRatio.length]; // (B, T) per-token divergence
    for (int i = 0; i < stat.length; i++) {
      stat[i] = rule.divergence().of(RolloutCorrection.clampLog(logRatio[i]));
    }
    boolean[] keep = new boolean[stat.length];
    for (int r = 0; r < rows; r++) {
      double rowStat = rowStatistic(stat, mask, cols, r, rule.level());
      for (int t = r * cols, end = t + cols; t < end; t++) {
        keep[t] = rule.keeps(rule.level() == RejectionRule.Level.TOKEN ? stat[t] : rowStat);
      }
    }
    return keep;
  }

  private static double rowStatistic(
      double[] stat, boolean[] mask, int cols, int r, RejectionRule.Level level) {
    return switch (level) {
      case TOKEN -> Double.NaN;
      case SEQ_SUM -> Masked.rowSum(stat, mask, cols, r);
      case SEQ_MEAN ->
          Masked.rowSum(stat, mask, cols, r) / (Shapes.rowLength(mask, cols, r) + 1e-8);
      case SEQ_MAX -> rowMax(stat, mask, cols, r);
    };
  }

  /** Max over valid tokens; 0 for an empty response, as in VeRL. */
  private static double rowMax(double[] stat, boolean[] mask, int cols, int r) {
    double max = Double.NEGATIVE_INFINITY;
    for (int t = r * cols, end = t + cols; t < end; t++) {
      if (mask[t]) {
        max = Math.max(max, stat[t]);
      }
    }
    return max == Double.NEGATIVE_INFINITY ? 0.0 : max;
  }

  private static double rejectedFraction(boolean[] keep, boolean[] mask) {
    boolean[] rejected = new boolean[keep.length];
    for (int i = 0; i < keep.length; i++) {
      rejected[i] = !keep[i];
    }
    return Masked.fraction(rejected, mask);
  }

  /**
   * Fraction of responses with a rejected valid token. Per rule VeRL divides by the responses that
   * have a valid token; for the combined mask it divides by all B ({@code overValidOnly=false}).
   */
  private static double rejectedSeqFraction(
      boolean[] keep, boolean[] mask, int rows, int cols, boolean overValidOnly) {
    int hit = 0;
    int valid = 0;
    for (int r = 0; r < rows; r++) {
      boolean any = false;
      for (int t = r * cols, end = t + cols; t < end; t++) {
        any |= mask[t] && !keep[t];
      }
      hit += any ? 1 : 0;
      valid += Shapes.rowLength(mask, cols, r) > 0 ? 1 : 0;
    }
    int denominator = overValidOnly ? valid : rows;
    return denominator == 0 ? 0.0 : (double) hit / denominator;
  }
}
