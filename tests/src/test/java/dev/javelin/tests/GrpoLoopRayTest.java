package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.driver.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop in the embedded default: Ray local mode, one trainer actor, two sampler actors.
 */
class GrpoLoopRayTest {

  @Test
  void meanRewardRisesWithTwoSamplersInRayLocalMode(@TempDir Path dir) throws Exception {
    int steps = 14;
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunSummary summary =
        new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
            .run(
                "recipes/arith-grpo.yaml",
                TinyRuns.tiny(dir, steps, "trainer.samplers=2", "trainer.ray=local"));
    String printed = console.toString(StandardCharsets.UTF_8);
    assertEquals(steps, summary.lastStep(), printed);
    assertFalse(summary.stopped());

    Map<Integer, Double> reward = TinyRuns.series(dir, "critic/score/mean");
    assertEquals(steps, reward.size(), "one metrics line per step");
    List<Double> r = new ArrayList<>(reward.values());
    double first = (r.get(0) + r.get(1) + r.get(2)) / 3;
    double last = (r.get(steps - 1) + r.get(steps - 2) + r.get(steps - 3)) / 3;
    assertTrue(last > first + 0.25, "reward should rise: first steps " + first + ", last " + last);

    String metrics = Files.readString(dir.resolve("metrics.jsonl"));
    for (String key :
        List.of(
            "timing_s/gen",
            "timing_s/reward",
            "timing_s/adv",
            "timing_s/old_log_prob",
            "timing_s/update_actor",
            "timing_s/update_weights",
            "timing_s/step",
            "perf/throughput",
            "perf/weight_sync_bytes",
            "actor/pg_loss",
            "response_length/mean",
            // LeadingDigitReward reports no acc: its held-out value is named as a reward.
            "val-core/synthetic/arith/reward/mean@1")) {
      assertTrue(metrics.contains("\"" + key + "\""), "metrics.jsonl lacks " + key);
    }
    assertTrue(Files.isDirectory(dir.resolve("global_step_" + steps)), "final checkpoint");
    assertTrue(printed.contains("held-out greedy reward"), printed);
    assertFalse(printed.contains("accuracy"), printed);
  }
}
