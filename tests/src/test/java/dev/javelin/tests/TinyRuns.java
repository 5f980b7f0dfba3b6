package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.driver.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Overrides that shrink the bundled arith-grpo recipe to a seconds-long run, and metric reading.
 */
public final class TinyRuns {
  private TinyRuns() {}

  static List<String> tiny(Path dir, int steps, String... extra) {
    return shape(dir, steps, 32, 1, 3, 16, extra);
  }

  /**
   * Overrides for a short arith-grpo run: a random-init model of {@code hidden} width and {@code
   * layers} layers over {@code maxPositions} positions, 1-digit sums, responses of up to {@code
   * maxResponse} tokens, the dense {@link LeadingDigitReward}, then {@code extra}.
   */
  public static List<String> shape(
      Path dir,
      int steps,
      int hidden,
      int layers,
      int maxResponse,
      int maxPositions,
      String... extra) {
    List<String> o =
        new ArrayList<>(
            List.of(
                "actor_rollout_ref.model.path=",
                "actor_rollout_ref.model.warmup_recipe=",
                "actor_rollout_ref.model.init.hidden=" + hidden,
                "actor_rollout_ref.model.init.intermediate=" + 2 * hidden,
                "actor_rollout_ref.model.init.layers=" + layers,
                "actor_rollout_ref.model.init.heads=2",
                "actor_rollout_ref.model.init.kv_heads=2",
                "actor_rollout_ref.model.init.max_positions=" + maxPositions,
                "data.synthetic.digits=1",
                "data.synthetic.train_size=90",
                "data.synthetic.val_size=8",
                "data.train_batch_size=8",
                "data.max_prompt_length=8",
                "data.max_response_length=" + maxResponse,
                "actor_rollout_ref.actor.ppo_mini_batch_size=8",
                "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=64",
                "actor_rollout_ref.actor.optim.lr=1e-2",
                "actor_rollout_ref.rollout.n=8",
                "custom_reward_function.name=",
                "custom_reward_function.class=" + LeadingDigitReward.class.getName(),
                "trainer.total_training_steps=" + steps,
                "trainer.test_freq=-1",
                "trainer.save_freq=-1",
                "trainer.default_local_dir=" + dir));
    o.addAll(List.of(extra));
    return o;
  }

  /** {@code key} per step from a run's metrics.jsonl (steps without it are absent). */
  static Map<Integer, Double> series(Path dir, String key) throws IOException {
    Pattern p = Pattern.compile("\"" + Pattern.quote(key) + "\":([-0-9.eE]+)");
    Pattern step = Pattern.compile("^\\{\"step\":(\\d+)");
    Map<Integer, Double> out = new TreeMap<>();
    for (String line : Files.readAllLines(dir.resolve("metrics.jsonl"))) {
      Matcher m = p.matcher(line);
      Matcher s = step.matcher(line);
      if (m.find() && s.find()) {
        out.put(Integer.parseInt(s.group(1)), Double.parseDouble(m.group(1)));
      }
    }
    return out;
  }

  /**
   * Runs {@code recipe} with {@link #tiny} overrides into {@code dir}; asserts it reached the last
   * step without stopping (the console in the message when not).
   */
  static void runTiny(String recipe, Path dir, int steps, String... extra) {
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunSummary summary =
        new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
            .run(recipe, tiny(dir, steps, extra));
    String printed = console.toString(StandardCharsets.UTF_8);
    assertEquals(steps, summary.lastStep(), printed);
    assertFalse(summary.stopped(), printed);
  }

  /**
   * Asserts that two checkpoint directories hold the same weight and optimizer files ({@code
   * model*}, {@code optimizer*}: whole or in a gang's parts), byte for byte.
   */
  public static void assertSameWeightFiles(Path want, Path got, String what) throws IOException {
    Map<String, byte[]> a = weightFiles(want);
    Map<String, byte[]> b = weightFiles(got);
    assertEquals(a.keySet(), b.keySet(), what + ": the files");
    assertFalse(a.isEmpty(), what + ": no weight files in " + want);
    a.forEach((name, bytes) -> assertArrayEquals(bytes, b.get(name), what + ": " + name));
  }

  private static Map<String, byte[]> weightFiles(Path dir) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        String name = p.getFileName().toString();
        if (name.startsWith("model") || name.startsWith("optimizer")) {
          out.put(name, Files.readAllBytes(p));
        }
      }
    }
    return out;
  }

  /** Every step of {@code got} equals {@code want}'s within 1e-4 relative (absolute below 1). */
  public static void assertSeriesClose(
      Map<Integer, Double> want, Map<Integer, Double> got, String what) {
    got.forEach(
        (step, v) ->
            assertEquals(
                want.get(step), v, 1e-4 * Math.max(1, Math.abs(v)), what + " at step " + step));
  }
}
