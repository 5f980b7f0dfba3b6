package dev.javelin.rewards;

import java.util.Map;

/**
 * Service-provider interface: makes a named {@link RewardFunction} from recipe keyword arguments
 * ({@code custom_reward_function.reward_kwargs}). Found by {@link java.util.ServiceLoader}; list
 * implementations in {@code META-INF/services/dev.javelin.rewards.RewardFunctionProvider}.
 */
public interface RewardFunctionProvider {

  /** The registry name, e.g. {@code gsm8k}. */
  String name();

  /**
   * Creates a function. Reject unknown or ill-typed keys with a {@link RewardConfigException}
   * naming the key ({@link RewardKwargs} does this).
   */
  RewardFunction create(Map<String, Object> kwargs);

  /**
   * Creates a function that may itself be built from other registered functions (e.g. a weighted
   * sum). The default ignores the registry.
   */
  default RewardFunction create(Map<String, Object> kwargs, RewardRegistry registry) {
    return create(kwargs);
  }
}
