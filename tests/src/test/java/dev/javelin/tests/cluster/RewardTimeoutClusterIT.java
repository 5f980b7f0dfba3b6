package dev.javelin.tests.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.cli.Commands;
import dev.javelin.recipes.driver.RunSummary;
import dev.javelin.tests.LeadingDigitReward;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reward function that hangs is cut off by reward.timeout_s inside a cluster run, and counted.
 */
class RewardTimeoutClusterIT {

  @Test
  void hungRewardCallsTimeOutAndAreCounted(@TempDir Path dir) throws Exception {
    int steps = 3;
    List<String> overrides =
        ClusterRuns.run(
            dir,
            steps,
            32,
            1,
            3,
            "custom_reward_function.class=" + HangingReward.class.getName(),
            "reward.timeout_s=0.5",
            // One worker sees every call in order, so its call counter hangs every 16th call as
            // one counter in this JVM would (a hung worker is replaced: its successor counts anew).
            "reward.workers.num=1");
    overrides.remove("custom_reward_function.class=" + LeadingDigitReward.class.getName());
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    long start = System.nanoTime();
    RunSummary summary =
        new Commands(new PrintStream(console, true, StandardCharsets.UTF_8))
            .run("recipes/arith-grpo.yaml", overrides);
    double seconds = (System.nanoTime() - start) / 1e9;
    assertEquals(steps, summary.lastStep(), console.toString(StandardCharsets.UTF_8));

    // 3 steps x 64 calls, every 16th hangs for a minute: 12 hung calls, each cut off at 0.5 s.
    Map<Integer, Double> timeouts = ClusterRuns.series(dir, "reward/timeouts");
    double total = timeouts.values().stream().mapToDouble(Double::doubleValue).sum();
    assertEquals(steps * 64.0 / HangingReward.EVERY, total, "hung calls counted: " + timeouts);
    Map<Integer, Double> count = ClusterRuns.series(dir, "reward/count");
    count.values().forEach(c -> assertEquals(64.0, c, "every rollout still scored"));
    assertTrue(seconds < 120, "the run took " + seconds + " s: hung calls were not cut off");
  }
}
