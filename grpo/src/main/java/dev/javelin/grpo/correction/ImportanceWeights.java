package dev.javelin.grpo.correction;

import dev.javelin.grpo.Masked;
import dev.javelin.grpo.RolloutCorrectionConfig;
import dev.javelin.grpo.RolloutCorrectionConfig.IsLevel;
import dev.javelin.grpo.Shapes;
import java.util.Map;

/** Truncated importance weights (TIS) at token or sequence level, with VeRL's metrics. */
final class ImportanceWeights {
  private ImportanceWeights() {}

  /**
   * Returns the (B, T) truncated weights and records {@code rollout_is_mean/max/min}, {@code
   * rollout_is_ratio_fraction_high} (the fraction truncated) and {@code _low}.
   */
  static double[] compute(
      double[] logRatio,
      boolean[] mask,
      int rows,
      int cols,
      RolloutCorrectionConfig config,
      Map<String, Double> metrics) {
    double threshold = config.rolloutIsThreshold();
    double[] w = new double[rows * cols]; // (B, T), untruncated, zero on padding
    if (config.rolloutIs() == IsLevel.TOKEN) {
      for (int i = 0; i < w.length; i++) {
        w[i] = mask[i] ? RolloutCorrection.safeExp(logRatio[i]) : 0.0;
      }
      tokenMetrics(w, mask, threshold, metrics);
    } else {
      double[] seqLog = new double[rows]; // (B,) Σ_t ℓ_t
      for (int r = 0; r < rows; r++) {
        seqLog[r] = Masked.rowSum(logRatio, mask, cols, r);
        double wr = RolloutCorrection.safeExp(seqLog[r]);
        for (int t = r * cols, end = t + cols; t < end; t++) {
          w[t] = mask[t] ? wr : 0.0;
        }
      }
      sequenceMetrics(w, mask, seqLog, threshold, metrics);
    }
    for (int i = 0; i < w.length; i++) {
      w[i] = Math.min(w[i], threshold);
    }
    if (config.rolloutIsBatchNormalize()) {
      normalize(w, mask, rows, cols, config.rolloutIs(), metrics);
    }
    return w;
  }

  private static void tokenMetrics(
      double[] w, boolean[] mask, double threshold, Map<String, Double> metrics) {
    boolean[] high = new boolean[w.length];
    boolean[] low = new boolean[w.length];
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    for (int i = 0; i < w.length; i++) {
      high[i] = w[i] > threshold;
      low[i] = w[i] < 1.0 / threshold;
      if (mask[i]) {
        max = Math.max(max, w[i]);
        min = Math.min(min, w[i]);
      }
    }
    metrics.put("rollout_is_mean", Masked.mean(w, mask));
    metrics.put("rollout_is_ratio_fraction_high", Masked.fraction(high, mask));
    metrics.put("rollout_is_ratio_fraction_low", Masked.fraction(low, mask));
    metrics.put("rollout_is_max", max);
    metrics.put("rollout_is_min", min);
  }

  /** Sequence-level fractions are over all B responses (VeRL's {@code .float().mean()}). */
  private static void sequenceMetrics(
      double[] w, boolean[] mask, double[] seqLog, double threshold, Map<String, Double> metrics) {
    double logMax = Double.NEGATIVE_INFINITY;
    double logMin = Double.POSITIVE_INFINITY;
    int high = 0;
    int low = 0;
    for (double s : seqLog) {
      logMax = Math.max(logMax, s);
      logMin = Math.min(logMin, s);
      high += s > Math.log(threshold) ? 1 : 0;
      low += s < Math.log(1.0 / threshold) ? 1 : 0;
    }
    metrics.put("rollout_is_mean", Masked.mean(w, mask));
    metrics.put("rollout_is_ratio_fraction_high", (double) high / seqLog.length);
    metrics.put("rollout_is_ratio_fraction_low", (double) low / seqLog.length);
    metrics.put("rollout_is_max", Math.exp(Math.min(logMax, 20.0)));
    metrics.put("rollout_is_min", Math.exp(logMin));
  }

  private static void normalize(
      double[] w, boolean[] mask, int rows, int cols, IsLevel level, Map<String, Double> metrics) {
    double mean;
    if (level == IsLevel.TOKEN) {
      mean = Masked.mean(w, mask);
    } else {
      double sum = 0.0;
      int seqs = 0;
      for (int r = 0; r < rows; r++) {
        int len = Shapes.rowLength(mask, cols, r);
        if (len > 0) {
          sum += Masked.rowSum(w, mask, cols, r) / (len + 1e-8);
          seqs++;
        }
      }
      mean = sum / Math.max(seqs, 1e-8);
    }
    if (mean > 1e-8) {
      for (int i = 0; i < w.length; i++) {
        w[i] /= mean;
      }
      metrics.put("rollout_is_batch_norm_factor", mean);
    } else {
      metrics.put("rollout_is_batch_norm_factor", 1.0);
    }
  }
}
