package dev.javelin.rewards.builtin;

import dev.javelin.rewards.RewardConfigException;
import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardFunctionProvider;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardKwargs;
import dev.javelin.rewards.RewardRegistry;
import dev.javelin.rewards.RewardResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A weighted sum of rewards, {@code r = Σ wᵢ·rᵢ}, e.g. 0.9·math + 0.1·format. Extras: each
 * component's score as {@code <name>/score}, its extras as {@code <name>/<key>}, and {@code acc}
 * from the first component that reports one.
 */
public final class WeightedReward implements RewardFunction {

  /**
   * One term.
   *
   * @param function the reward
   * @param weight its weight (finite)
   */
  public record Component(RewardFunction function, double weight) {
    /** Validates the weight. */
    public Component {
      if (function == null) {
        throw new IllegalArgumentException("function must not be null");
      }
      if (!Double.isFinite(weight)) {
        throw new IllegalArgumentException("weight must be finite, got " + weight);
      }
    }
  }

  private final List<Component> components;

  /** A sum over at least one component. */
  public WeightedReward(List<Component> components) {
    if (components == null || components.isEmpty()) {
      throw new IllegalArgumentException("components must not be empty");
    }
    this.components = List.copyOf(components);
  }

  @Override
  public String name() {
    return "weighted";
  }

  @Override
  public RewardResult score(RewardInput in) {
    double total = 0;
    Map<String, Object> extras = new LinkedHashMap<>();
    for (Component c : components) {
      RewardResult r = c.function().score(in);
      total += c.weight() * r.score();
      String prefix = c.function().name() + "/";
      extras.put(prefix + "score", r.score());
      r.extras().forEach((k, v) -> extras.put(prefix + k, v));
      if (!extras.containsKey("acc") && r.extras().containsKey("acc")) {
        extras.put("acc", r.extras().get("acc"));
      }
    }
    return new RewardResult(total, extras);
  }

  /**
   * Registers {@code weighted}; kwargs {@code components}: a list of {@code {name, weight,
   * reward_kwargs}}.
   */
  public static final class Provider implements RewardFunctionProvider {
    @Override
    public String name() {
      return "weighted";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      return create(kwargs, RewardRegistry.load());
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs, RewardRegistry registry) {
      RewardKwargs kw = RewardKwargs.of(name(), kwargs, "components");
      List<Component> parts = new ArrayList<>();
      for (Map<String, Object> item : kw.getMapList("components")) {
        RewardKwargs c =
            RewardKwargs.of("weighted.components", item, "name", "weight", "reward_kwargs");
        String name = c.getString("name", null);
        if (name == null) {
          throw new RewardConfigException("reward 'weighted': every component needs a 'name'");
        }
        parts.add(
            new Component(
                registry.create(name, c.getMap("reward_kwargs")), c.getDouble("weight", 1.0)));
      }
      if (parts.isEmpty()) {
        throw new RewardConfigException(
            "reward 'weighted': 'components' must list at least one {name, weight}");
      }
      return new WeightedReward(parts);
    }
  }
}
