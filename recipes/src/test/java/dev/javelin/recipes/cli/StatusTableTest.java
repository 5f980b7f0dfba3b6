package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.ray.RunRegistryProgress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table {@code javelin status} prints from the registry's reports. */
class StatusTableTest {
  @Test
  void oneRowPerRunWithStepRewardAccuracyThroughputAndEta() {
    long now = 1_000_000_000L;
    List<RunRegistryProgress> runs =
        List.of(
            new RunRegistryProgress(
                "exp@h:1-a",
                "exp",
                "raysubmit_A",
                "running",
                156,
                400,
                0.25,
                0.5,
                2436,
                0.07,
                17.08,
                now - 2_000),
            new RunRegistryProgress(
                "exp@h:2-b",
                "exp",
                "",
                "running",
                3,
                10,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                now - 600_000),
            new RunRegistryProgress(
                "exp@h:3-c",
                "exp",
                "raysubmit_C",
                "stopped",
                177,
                400,
                0,
                0,
                4804,
                0.07,
                0,
                now - 9_000));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new StatusCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8)).print(runs, now);
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(4, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(0).startsWith("RUN"), lines.get(0));
    assertEquals(
        List.of(
            "exp@h:1-a",
            "raysubmit_A",
            "running",
            "156/400",
            "0.250",
            "50.0%",
            "2436",
            "0.07",
            "17s",
            "2s",
            "ago"),
        List.of(lines.get(1).trim().split("\\s+")));
    assertEquals(
        List.of("exp@h:2-b", "-", "silent", "3/10", "-", "-", "-", "-", "-", "10m00s", "ago"),
        List.of(lines.get(2).trim().split("\\s+")));
    assertTrue(
        lines.get(3).contains(" stopped ") && lines.get(3).contains(" 177/400 "), lines.get(3));
  }
}
