package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.grpo.correction.RolloutProbsDiff;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One tiny GRPO step with f32 and with bf16 samplers under an f32 trainer: metrics.jsonl carries
 * the rollout/actor probability mismatch, float rounding for f32 sampling and bf16's error, three
 * orders of magnitude larger, for bf16 sampling.
 */
class RolloutDtypeRunTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  private JsonNode stepOne(String name, String... extra) throws IOException {
    Path dir = tmp.resolve(name);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            TinyRecipe.runArgs(dir, 1, extra),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    for (String line : Files.readAllLines(dir.resolve("metrics.jsonl"))) {
      JsonNode n = JSON.readTree(line);
      if (n.get("step").asInt() == 1) {
        return n;
      }
    }
    throw new AssertionError("no step 1 in " + dir.resolve("metrics.jsonl"));
  }

  @Test
  void metricsShowTheSamplersPrecision() throws IOException {
    JsonNode f32 = stepOne("f32");
    JsonNode bf16 = stepOne("bf16", "actor_rollout_ref.rollout.dtype=bf16");
    for (JsonNode m : new JsonNode[] {f32, bf16}) {
      for (String k :
          new String[] {
            RolloutProbsDiff.VALID,
            RolloutProbsDiff.MAX,
            RolloutProbsDiff.MEAN,
            RolloutProbsDiff.STD
          }) {
        assertTrue(m.has(k), k + " missing from " + m);
      }
    }
    double f32Mean = f32.get(RolloutProbsDiff.MEAN).asDouble();
    double bf16Mean = bf16.get(RolloutProbsDiff.MEAN).asDouble();
    System.out.printf(
        "tiny run, step 1: f32 sampling probs diff mean %.3g max %.3g; bf16 sampling mean %.3g"
            + " max %.3g%n",
        f32Mean,
        f32.get(RolloutProbsDiff.MAX).asDouble(),
        bf16Mean,
        bf16.get(RolloutProbsDiff.MAX).asDouble());
    // measured: f32 mean 2.1e-9 (max 6.5e-9), bf16 mean 2.5e-6 (max 7.1e-6)
    assertTrue(f32Mean < 1e-7, "f32 sampler and trainer should agree to rounding: " + f32Mean);
    assertTrue(bf16Mean > 10 * f32Mean, "bf16 sampling should show a larger mismatch: " + bf16);
  }
}
