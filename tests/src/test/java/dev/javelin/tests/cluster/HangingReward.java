package dev.javelin.tests.cluster;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardResult;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A reward function that hangs on every {@value #EVERY}th call (a minute, far past any time limit),
 * else scores 1 for a leading digit: the run must cut the hung calls off and go on.
 */
public final class HangingReward implements RewardFunction {
  static final int EVERY = 16;
  private static final AtomicLong CALLS = new AtomicLong();

  @Override
  public String name() {
    return "hanging";
  }

  @Override
  public RewardResult score(RewardInput input) {
    if (CALLS.incrementAndGet() % EVERY == 0) {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // abandoned by the scorer: give the thread back
      }
    }
    String r = input.response();
    return RewardResult.of(!r.isEmpty() && Character.isDigit(r.charAt(0)) ? 1.0 : 0.0);
  }
}
