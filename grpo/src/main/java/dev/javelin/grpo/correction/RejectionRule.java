package dev.javelin.grpo.correction;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One rejection-sampling rule ({@code rollout_rs} option) such as {@code token_k1} or {@code
 * seq_mean_k3}: a divergence between the training and rollout policies, aggregated at a level, and
 * the bounds a token or response must stay within to keep its mask.
 *
 * <p>With ℓ = clamp(logπ_train − logπ_rollout, −20, 20): k1 = −ℓ, k2 = ½ℓ², k3 = e^ℓ − 1 − ℓ. For
 * k1 the kept range is [log lower, log upper] (VeRL compares −ℓ to the logs of the ratio bounds);
 * for k2/k3 it is [−∞, upper].
 *
 * @param level token, or sum / mean / max over the response
 * @param divergence k1, k2 or k3
 * @param lower lower ratio bound (k1 only; NaN otherwise)
 * @param upper upper bound
 */
public record RejectionRule(Level level, Divergence divergence, double lower, double upper) {

  /** Validates that the bounds are positive and that seq_max is not used with k1. */
  public RejectionRule {
    if (level == Level.SEQ_MAX && divergence == Divergence.K1) {
      throw new IllegalArgumentException("rejection option seq_max_k1 is not supported");
    }
    if (!(upper > 0)) {
      throw new IllegalArgumentException("rejection upper bound must be > 0: " + upper);
    }
    if (divergence == Divergence.K1 && !(lower > 0)) {
      throw new IllegalArgumentException("rejection lower bound must be > 0: " + lower);
    }
  }

  /** VeRL's option name, e.g. {@code seq_mean_k3}. */
  public String name() {
    return level.prefix + "_" + divergence.name().toLowerCase(Locale.ROOT);
  }

  /** Whether a statistic value passes this rule. */
  public boolean keeps(double stat) {
    if (divergence == Divergence.K1) {
      return stat >= Math.log(lower) && stat <= Math.log(upper);
    }
    return stat <= upper;
  }

  /** Aggregation level of a rule. */
  public enum Level {
    TOKEN("token"),
    SEQ_SUM("seq_sum"),
    SEQ_MEAN("seq_mean"),
    SEQ_MAX("seq_max");

    final String prefix;

    Level(String prefix) {
      this.prefix = prefix;
    }
  }

  /** The divergence estimator of a rule. */
  public enum Divergence {
    K1,
    K2,
    K3;

    /** The per-token statistic for a (clamped) log ratio ℓ. */
    public double of(double logRatio) {
      return switch (this) {
        case K1 -> -logRatio;
        case K2 -> 0.5 * logRatio * logRatio;
        case K3 -> Math.exp(logRatio) - 1.0 - logRatio;
      };
    }
  }

  /**
   * Parses VeRL's comma-separated {@code rollout_rs} options and {@code rollout_rs_threshold} specs
   * (one shared, or one per option; k1 takes {@code lower_upper} or a single upper whose reciprocal
   * becomes the lower bound). Duplicated options are dropped.
   */
  public static List<RejectionRule> parse(String options, String thresholds) {
    if (options == null || options.isBlank()) {
      throw new IllegalArgumentException(
          "rejection options must be a non-empty comma-separated string");
    }
    if (thresholds == null || thresholds.isBlank()) {
      throw new IllegalArgumentException("rejection thresholds must be given with the options");
    }
    Set<String> names = new LinkedHashSet<>(split(options));
    List<String> specs = split(thresholds);
    if (specs.size() != 1 && specs.size() != names.size()) {
      throw new IllegalArgumentException(
          "rejection thresholds need 1 or "
              + names.size()
              + " comma-separated values, got "
              + specs.size());
    }
    List<RejectionRule> rules = new ArrayList<>();
    int i = 0;
    for (String name : names) {
      rules.add(of(name, specs.get(specs.size() == 1 ? 0 : i++)));
    }
    return rules;
  }

  private static RejectionRule of(String name, String spec) {
    int cut = name.lastIndexOf("_k");
    if (cut < 0) {
      throw unknown(name);
    }
    Level level = levelOf(name.substring(0, cut), name);
    Divergence div;
    try {
      div = Divergence.valueOf(name.substring(cut + 1).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw unknown(name);
    }
    if (div != Divergence.K1) {
      if (spec.contains("_")) {
        throw new IllegalArgumentException(
            "rejection threshold for '" + name + "' takes one upper bound, got '" + spec + "'");
      }
      return new RejectionRule(level, div, Double.NaN, number(spec, name));
    }
    int us = spec.indexOf('_');
    double upper = number(us < 0 ? spec : spec.substring(us + 1), name);
    double lower = us < 0 ? 1.0 / upper : number(spec.substring(0, us), name);
    return new RejectionRule(level, div, lower, upper);
  }

  private static Level levelOf(String prefix, String name) {
    for (Level l : Level.values()) {
      if (l.prefix.equals(prefix)) {
        return l;
      }
    }
    throw unknown(name);
  }

  private static IllegalArgumentException unknown(String name) {
    return new IllegalArgumentException(
        "unknown rejection option '"
            + name
            + "'; valid: token_k1, token_k2, token_k3, seq_sum_k1, seq_sum_k2, seq_sum_k3,"
            + " seq_mean_k1, seq_mean_k2, seq_mean_k3, seq_max_k2, seq_max_k3");
  }

  private static double number(String s, String name) {
    try {
      return Double.parseDouble(s.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "rejection threshold for '" + name + "' is not a number: '" + s + "'", e);
    }
  }

  private static List<String> split(String s) {
    List<String> out = new ArrayList<>();
    for (String part : s.split(",", -1)) {
      if (!part.isBlank()) {
        out.add(part.trim());
      }
    }
    return out;
  }
}
