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
  VANILLA("vanilla", new PpoClipLoss()),
  /** Group Sequence Policy Optimization: a length-normalised sequence ratio. */
  GSPO("gspo", new GspoLoss()),
  /** Clipped IS-weight policy optimization (MiniMax-M1). */
  CISPO("cispo", new CispoLoss()),
  /** Group Policy Gradient: plain −A·logπ. */
  GPG("gpg", new GpgLoss()),
  /** Sampler log-probs stand in for old log-probs: REINFORCE with IS weights, or PPO clip. */
  BYPASS_MODE("bypass_mode", new BypassLoss());

  private final String key;
  private final PolicyLoss loss;

  PolicyLossMode(String key, PolicyLoss loss) {
    this.key = key;
    this.loss = loss;
  }

  @Override
  public List<String> keys() {
    return List.of(key);
  }

  /** Parses a mode by its key ({@code vanilla}, ...). */
  public static PolicyLossMode parse(String key) {
    return RecipeKeyed.lookup(PolicyLossMode.class, key, "lossMode");
  }

  /** Per-token terms, multiplied by the batch's rollout IS weights where the loss takes them. */
  public PolicyLossTerms compute(PolicyBatch batch, PolicyLossConfig config) {
    PolicyLossTerms terms = loss.compute(batch, config);
    if (loss.appliesIsWeights() && batch.isWeights() != null) {
      return terms.scaledBy(batch.isWeights());
    }
    return terms;
  }
}
