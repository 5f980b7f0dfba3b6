package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.driver.GrpoDriver;
import dev.javelin.recipes.driver.RunParts;
import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.recipes.driver.Scoring;
import dev.javelin.recipes.driver.StopSignal;
import dev.javelin.recipes.metrics.MetricsJsonl;
import dev.javelin.recipes.ray.Workers;
import dev.javelin.recipes.task.TaskData;
import dev.javelin.recipes.task.TaskLoader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint/resume in {@code one_step_off}: a resume from a scheduled checkpoint is exact (same
 * weights as an uninterrupted run), and a stop while the next batch is already being generated
 * neither loses nor repeats that batch: batches.jsonl lists each step once, the same prompts as an
 * uninterrupted run, and no prompt twice within an epoch.
 */
class OneStepOffResumeTest {
  private static final Commands QUIET =
      new Commands(new PrintStream(OutputStream.nullOutputStream()));
  private static final String OFF = "trainer.rollout_mode=one_step_off";
  private static final Pattern LINE =
      Pattern.compile("^\\{\"step\":(\\d+),\"epoch\":(\\d+),\"ids\":\\[(.*)]}$");

  @Test
  void resumeFromScheduledCheckpointIsExact(@TempDir Path tmp) throws Exception {
    Path straight = tmp.resolve("straight");
    Path resumed = tmp.resolve("resumed");
    QUIET.run(
        "recipes/arith-grpo.yaml",
        TinyRuns.tiny(straight, 4, "trainer.ray=local", OFF, "trainer.save_freq=2"));
    QUIET.run("recipes/arith-grpo.yaml", TinyRuns.tiny(resumed, 2, "trainer.ray=local", OFF));
    QUIET.run("recipes/arith-grpo.yaml", TinyRuns.tiny(resumed, 4, "trainer.ray=local", OFF));

    assertArrayEquals(
        Files.readAllBytes(straight.resolve("global_step_4/model.safetensors")),
        Files.readAllBytes(resumed.resolve("global_step_4/model.safetensors")),
        "weights after step 4");
    assertEquals(
        TinyRuns.series(straight, "critic/score/mean"),
        TinyRuns.series(resumed, "critic/score/mean"),
        "per-step rewards");
    assertEquals(batches(straight), batches(resumed), "batches.jsonl");
  }

  @Test
  void stopWithPrefetchInFlightLosesAndRepeatsNothing(@TempDir Path tmp) throws Exception {
    int steps = 14; // 11 batches per epoch: the run crosses into epoch 1
    Path straight = tmp.resolve("straight");
    Path resumed = tmp.resolve("resumed");
    // trainer.ray=off: generation really runs on its own thread beside the update.
    QUIET.run("recipes/arith-grpo.yaml", TinyRuns.tiny(straight, steps, "trainer.ray=off", OFF));

    RunSummary first = runStoppingAfter(5, TinyRuns.tiny(resumed, steps, "trainer.ray=off", OFF));
    assertTrue(first.stopped(), "the first run stops early");
    assertEquals(5, first.lastStep());
    assertEquals(
        "5", Files.readString(resumed.resolve("latest_checkpointed_iteration.txt")).strip());
    QUIET.run("recipes/arith-grpo.yaml", TinyRuns.tiny(resumed, steps, "trainer.ray=off", OFF));

    Map<Integer, String> a = batches(straight);
    Map<Integer, String> b = batches(resumed);
    assertEquals(steps, b.size(), "each step once in batches.jsonl");
    assertEquals(a, b, "the same batch at every step as the uninterrupted run");
    Map<Integer, Set<String>> seen = new TreeMap<>();
    for (String line : Files.readAllLines(resumed.resolve("batches.jsonl"))) {
      Matcher m = LINE.matcher(line);
      assertTrue(m.matches(), line);
      Set<String> epoch = seen.computeIfAbsent(Integer.parseInt(m.group(2)), e -> new HashSet<>());
      for (String id : m.group(3).split(",", -1)) {
        assertTrue(epoch.add(id), "prompt " + id + " seen twice in epoch " + m.group(2));
      }
    }
    assertEquals(2, seen.size(), "epochs 0 and 1");
  }

  /** A run whose stop is requested (as Ctrl-C does) while step {@code stopAt} is logged. */
  private static RunSummary runStoppingAfter(int stopAt, List<String> overrides) {
    RecipeConfig recipe = Recipes.load("recipes/arith-grpo.yaml", overrides);
    TaskData task = TaskLoader.load(recipe);
    int total = recipe.totalSteps(task.train().size() / recipe.data().trainBatchSize());
    StopSignal stop = new StopSignal();
    Path dir = recipe.trainer().defaultLocalDir();
    try (Scoring scoring = new Scoring(recipe, task.tokenizer());
        Workers workers = Workers.start(recipe, total);
        MetricsJsonl metrics = new MetricsJsonl(dir.resolve("metrics.jsonl"))) {
      GrpoDriver driver =
          new GrpoDriver(
              new RunParts(
                  recipe, task, workers.trainer(), workers.samplers(), scoring, metrics, null));
      driver.addListener(
          (step, totalSteps, m) -> {
            if (step == stopAt) {
              stop.request();
            }
          });
      return driver.run(stop);
    }
  }

  /** step -> the raw line of batches.jsonl (fails on a repeated step). */
  private static Map<Integer, String> batches(Path dir) throws Exception {
    Map<Integer, String> out = new TreeMap<>();
    for (String line : Files.readAllLines(dir.resolve("batches.jsonl"))) {
      Matcher m = LINE.matcher(line);
      assertTrue(m.matches(), "malformed batches.jsonl line: " + line);
      String before = out.put(Integer.parseInt(m.group(1)), line);
      assertEquals(null, before, "step " + m.group(1) + " appears twice");
    }
    return out;
  }
}
