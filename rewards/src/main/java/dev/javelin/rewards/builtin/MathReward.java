package dev.javelin.rewards.builtin;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardFunctionProvider;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardKwargs;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.math.Boxed;
import dev.javelin.rewards.math.MathEquivalence;
import java.util.Map;
import java.util.Optional;

/**
 * MATH reward after VeRL's {@code math_reward.compute_score}: the content of the last {@code
 * \boxed{}} / {@code \boxed } / {@code \fbox{}} is compared with the ground truth. Where VeRL
 * compares normalised strings, this uses {@link MathEquivalence}: VeRL's normalisation first, then
 * exact mathematical equivalence (fractions, decimals, surds, π, tuples, intervals, sets, ...).
 *
 * <p>Ground truth: the answer (e.g. {@code \frac{3}{4}}); a full solution containing a box also
 * works, its last box is used.
 *
 * @param score reward for a correct answer
 * @param formatScore reward for a boxed but wrong answer
 */
public record MathReward(double score, double formatScore) implements RewardFunction {

  @Override
  public String name() {
    return "math";
  }

  @Override
  public RewardResult score(RewardInput in) {
    Optional<String> pred = Boxed.lastContent(in.response());
    if (pred.isEmpty()) {
      return new RewardResult(0.0, Extras.of(false, "", false));
    }
    boolean ok = MathEquivalence.equivalent(pred.get(), goldAnswer(in.groundTruth()));
    return new RewardResult(ok ? score : formatScore, Extras.of(ok, pred.get(), true));
  }

  static String goldAnswer(String gt) {
    return gt.contains("\\boxed") || gt.contains("\\fbox") ? Boxed.lastContent(gt).orElse(gt) : gt;
  }

  /** Registers {@code math}; kwargs {@code score} (1.0), {@code format_score} (0.0). */
  public static final class Provider implements RewardFunctionProvider {
    @Override
    public String name() {
      return "math";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      RewardKwargs kw = RewardKwargs.of("math", kwargs, "score", "format_score");
      return new MathReward(kw.getDouble("score", 1.0), kw.getDouble("format_score", 0.0));
    }
  }
}
