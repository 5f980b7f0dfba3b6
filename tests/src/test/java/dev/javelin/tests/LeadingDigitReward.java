package dev.javelin.tests;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardResult;

/**
 * A dense test reward: 1 when the response starts with a digit. A random tiny model does so about
 * one time in nine, so GRPO groups carry signal from step 1 and the mean reward must climb fast.
 */
public final class LeadingDigitReward implements RewardFunction {
  @Override
  public String name() {
    return "leading_digit";
  }

  @Override
  public RewardResult score(RewardInput input) {
    String r = input.response();
    return RewardResult.of(!r.isEmpty() && Character.isDigit(r.charAt(0)) ? 1.0 : 0.0);
  }
}
