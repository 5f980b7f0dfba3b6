package dev.javelin.rewards;

import java.util.Map;

/** A custom reward as a user would write it: response length times {@code scale}. */
public final class LengthReward implements RewardFunction {

  private final double scale;

  /** Built from recipe kwargs. */
  public LengthReward(Map<String, Object> kwargs) {
    this.scale = RewardKwargs.of("test_length", kwargs, "scale").getDouble("scale", 1.0);
  }

  @Override
  public String name() {
    return "test_length";
  }

  @Override
  public RewardResult score(RewardInput in) {
    return RewardResult.of(scale * in.response().length());
  }

  /** Registers it by name through META-INF/services. */
  public static final class Provider implements RewardFunctionProvider {
    @Override
    public String name() {
      return "test_length";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      return new LengthReward(kwargs);
    }
  }

  /** Same name as {@link Provider}: the registry keeps the first and logs this one. */
  public static final class Duplicate implements RewardFunctionProvider {
    @Override
    public String name() {
      return "test_length";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      throw new AssertionError("duplicate provider must not be used");
    }
  }

  /** A function with only a no-arg constructor. */
  public static final class Constant implements RewardFunction {
    @Override
    public String name() {
      return "constant";
    }

    @Override
    public RewardResult score(RewardInput in) {
      return RewardResult.of(0.5);
    }
  }
}
