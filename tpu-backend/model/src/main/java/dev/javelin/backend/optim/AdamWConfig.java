package dev.javelin.backend.optim;

/**
 * AdamW hyper-parameters (Loshchilov &amp; Hutter): {@code m ← β1 m + (1-β1) g}, {@code v ← β2 v +
 * (1-β2) g²}, {@code w ← w (1 - η λ) - η m̂ / (√v̂ + ε)} with bias-corrected {@code m̂ =
 * m/(1-β1^t)}, {@code v̂ = v/(1-β2^t)}. Gradients are first clipped to global norm {@code
 * maxGradNorm}.
 *
 * @param beta1 β1 in [0, 1)
 * @param beta2 β2 in [0, 1)
 * @param eps ε &gt; 0
 * @param weightDecay λ &gt;= 0, decoupled (applied to the weights, not the gradient)
 * @param maxGradNorm clip threshold &gt; 0; {@code Double.POSITIVE_INFINITY} disables clipping
 */
public record AdamWConfig(
    double beta1, double beta2, double eps, double weightDecay, double maxGradNorm) {

  public AdamWConfig {
    if (!(beta1 >= 0 && beta1 < 1)) {
      throw new IllegalArgumentException("beta1 must be in [0, 1), got " + beta1);
    }
    if (!(beta2 >= 0 && beta2 < 1)) {
      throw new IllegalArgumentException("beta2 must be in [0, 1), got " + beta2);
    }
    if (!(eps > 0)) {
      throw new IllegalArgumentException("eps must be > 0, got " + eps);
    }
    if (!(weightDecay >= 0)) {
      throw new IllegalArgumentException("weightDecay must be >= 0, got " + weightDecay);
    }
    if (!(maxGradNorm > 0)) {
      throw new IllegalArgumentException(
          "maxGradNorm must be > 0 (or +Infinity), got " + maxGradNorm);
    }
  }

  /** VeRL's actor defaults: betas (0.9, 0.999), ε 1e-8, weight decay 0.01, grad clip 1.0. */
  public static AdamWConfig defaults() {
    return new AdamWConfig(0.9, 0.999, 1e-8, 0.01, 1.0);
  }

  public boolean clips() {
    return !Double.isInfinite(maxGradNorm);
  }
}
