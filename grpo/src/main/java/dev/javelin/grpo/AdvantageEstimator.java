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
  GRPO("grpo", GroupAdvantages::grpo, Needs.GROUP),
  GRPO_PASSK("grpo_passk", GroupAdvantages::grpoPassK, Needs.GROUP),
  RLOO("rloo", GroupAdvantages::rloo, Needs.GROUP),
  OPO("opo", GroupAdvantages::opo, Needs.GROUP),
  GPG("gpg", GroupAdvantages::gpg, Needs.NOTHING),
  REINFORCE_PLUS_PLUS("reinforce_plus_plus", ReturnAdvantages::reinforcePlusPlus, Needs.NOTHING),
  REINFORCE_PLUS_PLUS_BASELINE(
      "reinforce_plus_plus_baseline", ReturnAdvantages::reinforcePlusPlusBaseline, Needs.NOTHING),
  REMAX("remax", ReturnAdvantages::remax, Needs.GREEDY_BASELINE);

  /** What an estimator needs from the rollout beyond scored responses. */
  private enum Needs {
    NOTHING,
    /** n ≥ 2 responses per prompt: it compares responses within their group. */
    GROUP,
    /** A greedy response per prompt, scored: its reward is the baseline (ReMax). */
    GREEDY_BASELINE
  }

  private final String key;
  private final AdvantageFunction function;
  private final Needs needs;

  AdvantageEstimator(String key, AdvantageFunction function, Needs needs) {
    this.key = key;
    this.function = function;
    this.needs = needs;
  }

  /** Whether this estimator compares responses within a prompt's group (needs n ≥ 2). */
  public boolean comparesWithinGroup() {
    return needs == Needs.GROUP;
  }

  /**
   * Whether this estimator needs a greedy (temperature 0) response per prompt, scored, as its
   * baseline (ReMax: {@code AdvantageInput.rewardBaselines}).
   */
  public boolean needsGreedyBaseline() {
    return needs == Needs.GREEDY_BASELINE;
  }

  @Override
  public List<String> keys() {
    return List.of(key);
  }

  /** Parses an estimator by its key ({@code grpo}, {@code rloo}, ...). */
  public static AdvantageEstimator parse(String key) {
    if ("gae".equals(key)) {
      throw new IllegalArgumentException(
          "advEstimator 'gae' needs a critic, which Javelin does not train; valid: "
              + RecipeKeyed.allKeys(AdvantageEstimator.class));
    }
    return RecipeKeyed.lookup(AdvantageEstimator.class, key, "advEstimator");
  }

  /** Runs this estimator. */
  public AdvantageResult compute(AdvantageInput input, AlgorithmConfig config) {
    return function.compute(input, config);
  }
}
