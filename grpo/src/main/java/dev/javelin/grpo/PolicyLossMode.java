package dev.javelin.grpo;

import dev.javelin.grpo.loss.BypassLoss;
import dev.javelin.grpo.loss.CispoLoss;
import dev.javelin.grpo.loss.GpgLoss;
import dev.javelin.grpo.loss.GspoLoss;
import dev.javelin.grpo.loss.PpoClipLoss;
import java.util.List;

/**
 * The registry of policy losses, keyed by {@code actor.policy_loss.loss_mode}. Formulas are in each
 * implementation's javadoc and in docs/ALGORITHMS.md.
 */
@SuppressWarnings("ImmutableEnumChecker") // the loss implementations are stateless
public enum PolicyLossMode implements RecipeKeyed {
  /** PPO clip with clip-higher and dual-clip. */
  VANILLA("vanilla", new PpoClipLoss(), true),
  /** Group Sequence Policy Optimization: a length-normalised sequence ratio. */
  GSPO("gspo", new GspoLoss(), true),
  /** Clipped IS-weight policy optimization (MiniMax-M1). */
  CISPO("cispo", new CispoLoss(), true),
  /** Group Policy Gradient: plain −A·logπ. */
  GPG("gpg", new GpgLoss(), true),
  /** Sampler log-probs stand in for old log-probs: REINFORCE with IS weights, or PPO clip. */
  BYPASS_MODE("bypass_mode", new BypassLoss(), false);

  private final String key;
  private final PolicyLoss loss;
  private final boolean appliesIsWeights;

  PolicyLossMode(String key, PolicyLoss loss, boolean appliesIsWeights) {
    this.key = key;
    this.loss = loss;
    this.appliesIsWeights = appliesIsWeights;
  }

  @Override
  public List<String> keys() {
    return List.of(key);
  }

  /** Parses a mode by its key ({@code vanilla}, ...). */
  public static PolicyLossMode parse(String key) {
    return RecipeKeyed.lookup(PolicyLossMode.class, key, "lossMode");
  }

  /**
   * Per-token terms, multiplied by the batch's rollout IS weights where this mode uses them (bypass
   * mode computes its own weights, as in VeRL, and ignores precomputed ones).
   */
  public PolicyLossTerms compute(PolicyBatch batch, PolicyLossConfig config) {
    PolicyLossTerms terms = loss.compute(batch, config);
    if (appliesIsWeights && batch.isWeights() != null) {
      return terms.scaledBy(batch.isWeights());
    }
    return terms;
  }
}
