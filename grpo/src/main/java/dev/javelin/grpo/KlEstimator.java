package dev.javelin.grpo;

import java.util.List;

/**
 * Per-token estimators of KL(π_θ ‖ π_ref) from sampled log-probs (Schulman, "Approximating KL
 * divergence", 2020), selected by {@code actor.kl_loss_type} or {@code algorithm.kl_penalty}. With
 * x = logπ_θ − logπ_ref:
 *
 * <ul>
 *   <li>{@code kl}/{@code k1}: k1 = x
 *   <li>{@code abs}: |x|
 *   <li>{@code mse}/{@code k2}: k2 = ½x²
 *   <li>{@code low_var_kl}/{@code k3}: k3 = e^{−x'} + x' − 1 with x' = clamp(x, −20, 20), the
 *       result clamped to [−10, 10]
 *   <li>a trailing {@code +} (straight-through): the forward value of the named estimator with the
 *       gradient of k2, i.e. ∂/∂logπ_θ = x, which is unbiased for ∇KL.
 * </ul>
 *
 * <p>Deliberate difference: VeRL (at b178a3c) passes the {@code +}-suffixed name on to its forward
 * function, which rejects it; we strip the suffix as VeRL's documentation describes.
 */
@SuppressWarnings("ImmutableEnumChecker") // keys are List.of(...), which is unmodifiable
public enum KlEstimator implements RecipeKeyed {
  K1(List.of("kl", "k1"), false),
  ABS(List.of("abs"), false),
  K2(List.of("mse", "k2", "mse+", "k2+"), false),
  K3(List.of("low_var_kl", "k3"), false),
  K1_STRAIGHT_THROUGH(List.of("kl+", "k1+"), true),
  ABS_STRAIGHT_THROUGH(List.of("abs+"), true),
  K3_STRAIGHT_THROUGH(List.of("low_var_kl+", "k3+"), true);

  private static final double LOG_RATIO_BOUND = 20.0;
  private static final double K3_BOUND = 10.0;

  private final List<String> keys;
  private final boolean straightThrough;

  KlEstimator(List<String> keys, boolean straightThrough) {
    this.keys = keys;
    this.straightThrough = straightThrough;
  }

  @Override
  public List<String> keys() {
    return keys;
  }

  /** Parses a KL estimator name; {@code field} names where it was given, for the error message. */
  public static KlEstimator parse(String key, String field) {
    if ("full".equals(key)) {
      throw new IllegalArgumentException(
          field + " 'full' needs the whole vocabulary distribution and is not supported");
    }
    return RecipeKeyed.lookup(KlEstimator.class, key, field);
  }

  /** The per-token estimate for log-probs {@code logProb} (π_θ) and {@code refLogProb}. */
  public double value(double logProb, double refLogProb) {
    double x = logProb - refLogProb;
    return switch (this) {
      case K1, K1_STRAIGHT_THROUGH -> x;
      case ABS, ABS_STRAIGHT_THROUGH -> Math.abs(x);
      case K2 -> 0.5 * x * x;
      case K3, K3_STRAIGHT_THROUGH -> k3(x);
    };
  }

  /** ∂value/∂logProb as autodiff would give it (clamps pass no gradient when active). */
  public double gradient(double logProb, double refLogProb) {
    double x = logProb - refLogProb;
    if (straightThrough) {
      return x;
    }
    return switch (this) {
      case K1 -> 1.0;
      // torch's abs'(0) = 0, matched here.
      case ABS -> Math.signum(x);
      case K2 -> x;
      case K3 -> k3Gradient(x);
      default -> throw new AssertionError(this);
    };
  }

  private static double k3(double x) {
    double kl = clamp(-x, -LOG_RATIO_BOUND, LOG_RATIO_BOUND); // log(π_ref/π_θ)
    double kld = Math.exp(kl) - kl - 1.0;
    return clamp(kld, -K3_BOUND, K3_BOUND);
  }

  private static double k3Gradient(double x) {
    double negX = -x;
    if (negX < -LOG_RATIO_BOUND || negX > LOG_RATIO_BOUND) {
      return 0.0;
    }
    double kld = Math.exp(negX) - negX - 1.0;
    if (kld > K3_BOUND) {
      return 0.0;
    }
    return -(Math.exp(negX) - 1.0);
  }

  static double clamp(double v, double lo, double hi) {
    return Math.max(lo, Math.min(hi, v));
  }
}
