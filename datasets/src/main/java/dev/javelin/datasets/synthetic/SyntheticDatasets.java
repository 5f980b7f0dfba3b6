package dev.javelin.datasets.synthetic;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.Example;
import dev.javelin.datasets.PromptTemplate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Builds deterministic, de-duplicated train and held-out sets from a {@link SyntheticTask}.
 *
 * <p>The held-out set is drawn first from its own random stream; the train stream then rejects
 * every problem whose key is held out or already taken. So for a seed the held-out set does not
 * depend on the train size, and no held-out prompt ever appears in training.
 */
public final class SyntheticDatasets {
  /** A draw that repeats a known key this many times in a row means the space is exhausted. */
  static final int MAX_CONSECUTIVE_REPEATS = 100_000;

  private static final long HELD_OUT_STREAM = 0x5DEECE66DL;

  private SyntheticDatasets() {}

  /**
   * Draws {@code heldOutSize} then {@code trainSize} distinct problems.
   *
   * @throws IllegalArgumentException when the task cannot supply that many distinct problems
   */
  public static SyntheticSplit split(
      SyntheticTask task, PromptTemplate template, long seed, int trainSize, int heldOutSize) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(template, "template");
    requireNonNegative(trainSize, "trainSize");
    requireNonNegative(heldOutSize, "heldOutSize");
    Set<String> taken = new HashSet<>();
    List<Problem> heldOut =
        drawDistinct(task, new SplittableRandom(seed ^ HELD_OUT_STREAM), heldOutSize, taken);
    List<Problem> train = drawDistinct(task, new SplittableRandom(seed), trainSize, taken);
    return new SyntheticSplit(
        toExamples(task, template, train, "train"), toExamples(task, template, heldOut, "test"));
  }

  /** {@code count} distinct training examples, with no held-out set. */
  public static List<Example> generate(
      SyntheticTask task, PromptTemplate template, long seed, int count) {
    return split(task, template, seed, count, 0).train();
  }

  private static List<Problem> drawDistinct(
      SyntheticTask task, SplittableRandom rng, int count, Set<String> taken) {
    List<Problem> problems = new ArrayList<>(count);
    int repeats = 0;
    while (problems.size() < count) {
      Problem problem = task.draw(rng);
      if (taken.add(problem.key())) {
        problems.add(problem);
        repeats = 0;
      } else if (++repeats >= MAX_CONSECUTIVE_REPEATS) {
        throw new IllegalArgumentException(
            task.dataSource()
                + ": found only "
                + problems.size()
                + " of "
                + count
                + " requested distinct problems ("
                + taken.size()
                + " taken in all); the task's space is too small, widen its config");
      }
    }
    return problems;
  }

  private static List<Example> toExamples(
      SyntheticTask task, PromptTemplate template, List<Problem> problems, String split) {
    List<Example> examples = new ArrayList<>(problems.size());
    for (int index = 0; index < problems.size(); index++) {
      Problem problem = problems.get(index);
      List<ChatMessage> prompt = template.render(problem.question());
      Map<String, Object> extraInfo = new LinkedHashMap<>();
      extraInfo.put("split", split);
      extraInfo.put("index", (long) index);
      extraInfo.putAll(problem.extraInfo());
      examples.add(
          new Example(
              Example.uid(task.dataSource(), index, prompt, problem.answer()),
              task.dataSource(),
              prompt,
              problem.answer(),
              extraInfo));
    }
    return examples;
  }

  private static void requireNonNegative(int value, String field) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0, got " + value);
    }
  }
}
