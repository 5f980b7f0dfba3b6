package dev.javelin.rewards.builtin;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardFunctionProvider;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardKwargs;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.math.NumberLiteral;
import dev.javelin.rewards.math.Rational;
import java.util.Map;

/**
 * Exact-match reward for Javelin's synthetic tasks: the response, trimmed and cut at its first
 * newline, must equal the trimmed ground truth, or both must be numbers with the same exact value
 * ({@code 0.50} = {@code 1/2}).
 *
 * @param score reward for a match
 */
public record ExactMatchReward(double score) implements RewardFunction {

  @Override
  public String name() {
    return "exact_match";
  }

  @Override
  public RewardResult score(RewardInput in) {
    String r = in.response().strip();
    int nl = r.indexOf('\n');
    String pred = (nl < 0 ? r : r.substring(0, nl)).strip();
    String gold = in.groundTruth().strip();
    boolean ok = pred.equals(gold);
    if (!ok) {
      Rational p = NumberLiteral.parse(pred);
      ok = p != null && p.equals(NumberLiteral.parse(gold));
    }
    return new RewardResult(ok ? score : 0.0, Extras.of(ok, pred, !pred.isEmpty()));
  }

  /** Registers {@code exact_match}; kwargs {@code score} (1.0). */
  public static final class Provider implements RewardFunctionProvider {
    @Override
    public String name() {
      return "exact_match";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      return new ExactMatchReward(RewardKwargs.of(name(), kwargs, "score").getDouble("score", 1.0));
    }
  }
}
