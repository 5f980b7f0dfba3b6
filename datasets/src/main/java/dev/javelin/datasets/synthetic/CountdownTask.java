package dev.javelin.datasets.synthetic;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * Countdown: reach a target from given numbers, each used exactly once, with {@code + - * /}; data
 * source {@code synthetic/countdown}. Only solvable instances are produced: for numbers drawn
 * uniformly, the target is uniform among the targets in range that they can reach.
 *
 * <p>Ground truth is the target as a decimal string. {@code extraInfo} holds {@code target} ({@code
 * Long}), {@code numbers} ({@code List<Long>}, in prompt order) and {@code solution} (one witness
 * expression, for debugging; never shown to the policy) — the rewards module reads {@code target}
 * and {@code numbers} from there.
 */
public record CountdownTask(CountdownConfig config) implements SyntheticTask {

  public CountdownTask {
    Objects.requireNonNull(config, "config");
  }

  @Override
  public String dataSource() {
    return "synthetic/countdown";
  }

  /**
   * Draws numbers until some target in range is reachable, then a target uniformly among the
   * reachable ones: one exhaustive search per draw instead of rejecting most (numbers, target)
   * pairs (only ~15% of uniform pairs are solvable for the standard config).
   */
  @Override
  public Problem draw(SplittableRandom rng) {
    for (int attempt = 0; attempt < config.maxAttempts(); attempt++) {
      List<Long> numbers = new ArrayList<>(config.count());
      for (int i = 0; i < config.count(); i++) {
        numbers.add((long) rng.nextInt(config.minNumber(), config.maxNumber() + 1));
      }
      long[] reachable =
          CountdownSolver.reachableTargets(numbers, config.minTarget(), config.maxTarget());
      if (reachable.length > 0) {
        long target = reachable[rng.nextInt(reachable.length)];
        String solution =
            CountdownSolver.solve(numbers, target)
                .orElseThrow(() -> new IllegalStateException("reachable target without witness"));
        return problem(List.copyOf(numbers), target, solution);
      }
    }
    throw new IllegalStateException(
        "countdown: no solvable instance in "
            + config.maxAttempts()
            + " draws for "
            + config
            + "; widen the number range or the target range");
  }

  private static Problem problem(List<Long> numbers, long target, String solution) {
    String question =
        // The numbers without list brackets, which the character tokenizer cannot encode.
        "Using the numbers "
            + numbers.stream().map(String::valueOf).collect(Collectors.joining(", "))
            + ", create an equation that equals "
            + target
            + ". You can use basic arithmetic operations (+, -, *, /) and each number must be"
            + " used exactly once.";
    Map<String, Object> extraInfo = new LinkedHashMap<>();
    extraInfo.put("target", target);
    extraInfo.put("numbers", numbers);
    extraInfo.put("solution", solution);
    List<Long> sorted = new ArrayList<>(numbers);
    sorted.sort(null);
    return new Problem(sorted + "->" + target, question, Long.toString(target), extraInfo);
  }
}
