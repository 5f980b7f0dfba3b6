package dev.javelin.grpo;

import java.util.List;

/**
 * How a (B, T) matrix of per-token losses L becomes a scalar ({@code actor.loss_agg_mode}). Every
 * mode is linear in L, so it is written as weights w with ℒ = Σ w·L and ∂ℒ/∂L = w. With m the mask,
 * |o_i| = Σ_t m_it, N_tok and N_seq the global counts and T_norm the norm length:
 *
 * <ul>
 *   <li>{@code token-mean}: w = m / N_tok
 *   <li>{@code seq-mean-token-sum}: w = m / N_seq
 *   <li>{@code seq-mean-token-mean}: w = m / ((|o_i| + 1e-8) · N_seq)
 *   <li>{@code seq-mean-token-sum-norm} (Dr.GRPO): w = m / T_norm — no division by N_seq, as in
 *       VeRL, which "turns off seq-dim averaging".
 * </ul>
 */
public enum LossAggMode implements RecipeKeyed {
  TOKEN_MEAN("token-mean"),
  SEQ_MEAN_TOKEN_SUM("seq-mean-token-sum"),
  SEQ_MEAN_TOKEN_MEAN("seq-mean-token-mean"),
  SEQ_MEAN_TOKEN_SUM_NORM("seq-mean-token-sum-norm");

  private final String key;

  LossAggMode(String key) {
    this.key = key;
  }

  @Override
  public List<String> keys() {
    return List.of(key);
  }

  /** Parses a mode by its key ({@code token-mean}, ...). */
  public static LossAggMode parse(String key) {
    return RecipeKeyed.lookup(LossAggMode.class, key, "lossAggMode");
  }

  /** The (B, T) aggregation weights w for this mask and these global denominators. */
  public double[] weights(boolean[] mask, int rows, int cols, GlobalBatch global) {
    Shapes.checkMask(mask, rows, cols);
    double[] w = new double[rows * cols]; // (B, T)
    for (int r = 0; r < rows; r++) {
      double rowWeight = rowWeight(Shapes.rowLength(mask, cols, r), global);
      for (int t = r * cols, end = t + cols; t < end; t++) {
        w[t] = mask[t] ? rowWeight : 0.0;
      }
    }
    return w;
  }

  private double rowWeight(int length, GlobalBatch g) {
    return switch (this) {
      case TOKEN_MEAN -> 1.0 / g.tokens();
      case SEQ_MEAN_TOKEN_SUM -> 1.0 / g.sequences();
      // VeRL adds 1e-8 to the per-sequence token count; kept so values match to 1e-12.
      case SEQ_MEAN_TOKEN_MEAN -> 1.0 / ((length + 1e-8) * g.sequences());
      case SEQ_MEAN_TOKEN_SUM_NORM -> 1.0 / g.normLength();
    };
  }

  /** ℒ = Σ w·L over (B, T) matrices. */
  public static double dot(double[] weights, double[] values) {
    double s = 0.0;
    for (int i = 0; i < weights.length; i++) {
      if (weights[i] != 0.0) {
        s += weights[i] * values[i];
      }
    }
    return s;
  }
}
