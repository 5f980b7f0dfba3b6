package dev.javelin.grpo;

import dev.javelin.grpo.advantage.GroupAdvantages;
import dev.javelin.grpo.advantage.ReturnAdvantages;
import java.util.List;

/**
 * The registry of advantage estimators, keyed by {@code algorithm.adv_estimator}. Formulas are in
 * the implementing functions' javadoc and in docs/ALGORITHMS.md.
 */
@SuppressWarnings("ImmutableEnumChecker") // the functions are static method references
public enum AdvantageEstimator implements RecipeKeyed {
  GRPO("grpo", GroupAdvantages::grpo),
  GRPO_PASSK("grpo_passk", GroupAdvantages::grpoPassK),
  RLOO("rloo", GroupAdvantages::rloo),
  OPO("opo", GroupAdvantages::opo),
  GPG("gpg", GroupAdvantages::gpg),
  REINFORCE_PLUS_PLUS("reinforce_plus_plus", ReturnAdvantages::reinforcePlusPlus),
  REINFORCE_PLUS_PLUS_BASELINE(
      "reinforce_plus_plus_baseline", ReturnAdvantages::reinforcePlusPlusBaseline),
  REMAX("remax", ReturnAdvantages::remax);

  private final String key;
  private final AdvantageFunction function;

  AdvantageEstimator(String key, AdvantageFunction function) {
    this.key = key;
    this.function = function;
  }

  @Override
  public List<String> keys() {
    return List.of(key);
  }

  /** Parses {@code algorithm.adv_estimator}. */
  public static AdvantageEstimator parse(String key) {
    if ("gae".equals(key)) {
      throw new IllegalArgumentException(
          "algorithm.adv_estimator 'gae' needs a critic, which Javelin does not train; valid: "
              + RecipeKeyed.allKeys(AdvantageEstimator.class));
    }
    return RecipeKeyed.lookup(AdvantageEstimator.class, key, "algorithm.adv_estimator");
  }

  /** Runs this estimator. */
  public AdvantageResult compute(AdvantageInput input, AlgorithmConfig config) {
    return function.compute(input, config);
  }
}
