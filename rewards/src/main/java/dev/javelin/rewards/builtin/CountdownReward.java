package dev.javelin.rewards.builtin;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardFunctionProvider;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardKwargs;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.math.Latex;
import dev.javelin.rewards.math.NotEvaluable;
import dev.javelin.rewards.math.Rational;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Countdown reward (TinyZero's task): the equation inside the last {@code <answer>...</answer>}
 * must use each given number exactly once and evaluate exactly to the target. Scores {@code score}
 * when it does, {@code format_score} for an answer that fails, 0 with no answer. A trailing {@code
 * = target} is tolerated. Evaluation is a safe parser ({@link CountdownEquation}), never eval.
 *
 * @param score reward for a correct equation
 * @param formatScore reward for a present but wrong equation
 */
public record CountdownReward(double score, double formatScore) implements RewardFunction {

  @Override
  public String name() {
    return "countdown";
  }

  @Override
  public RewardResult score(RewardInput in) {
    CountdownPuzzle task = CountdownPuzzle.from(in.groundTruth(), in.extraInfo());
    String eq = lastAnswer(in.response());
    if (eq == null) {
      return new RewardResult(0.0, Extras.of(false, "", false));
    }
    boolean ok = solves(eq, task);
    return new RewardResult(ok ? score : formatScore, Extras.of(ok, eq, true));
  }

  static boolean solves(String equation, CountdownPuzzle task) {
    String eq = equation.strip();
    int equals = eq.indexOf('=');
    if (equals >= 0) {
      String rhs = eq.substring(equals + 1).strip();
      if (!rhs.equals(Long.toString(task.target()))) {
        return false;
      }
      eq = eq.substring(0, equals);
    }
    try {
      CountdownEquation.Result r = CountdownEquation.evaluate(eq);
      List<Long> used = new ArrayList<>(r.literals());
      List<Long> given = new ArrayList<>(task.numbers());
      Collections.sort(used);
      Collections.sort(given);
      return used.equals(given) && r.value().equals(Rational.of(task.target()));
    } catch (NotEvaluable e) {
      return false;
    }
  }

  /** Content of the last {@code <answer>...</answer>}, or null. */
  static String lastAnswer(String s) {
    int close = Latex.lastIndexOf(s, "</answer>", s.length());
    if (close < 0) {
      return null;
    }
    int open = Latex.lastIndexOf(s, "<answer>", close);
    return open < 0 ? null : s.substring(open + "<answer>".length(), close);
  }

  /** Registers {@code countdown}; kwargs {@code score} (1.0), {@code format_score} (0.1). */
  public static final class Provider implements RewardFunctionProvider {
    @Override
    public String name() {
      return "countdown";
    }

    @Override
    public RewardFunction create(Map<String, Object> kwargs) {
      RewardKwargs kw = RewardKwargs.of(name(), kwargs, "score", "format_score");
      return new CountdownReward(kw.getDouble("score", 1.0), kw.getDouble("format_score", 0.1));
    }
  }
}
