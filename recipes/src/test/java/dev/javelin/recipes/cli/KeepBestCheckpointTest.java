package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.metrics.HeldOut;
import dev.javelin.trainer.BestCheckpoint;
import dev.javelin.trainer.CheckpointManifest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code trainer.keep_best_checkpoint}: the step whose validation scored best is saved and kept
 * beside the newest {@code max_actor_ckpt_to_keep}, and named by best_checkpointed_iteration.txt.
 */
class KeepBestCheckpointTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  @Test
  void theBestValidatedStepIsKeptBesideTheLatest() throws Exception {
    Path dir = tmp.resolve("run");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        Main.run(
            TinyRecipe.runArgs(
                dir,
                6,
                "trainer.test_freq=1",
                "trainer.max_actor_ckpt_to_keep=1",
                "trainer.keep_best_checkpoint=true",
                "actor_rollout_ref.actor.optim.lr=3e-2"),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(out, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, printed);

    int bestStep = -1;
    double bestValue = Double.NEGATIVE_INFINITY;
    double startValue = Double.NaN;
    for (String line : Files.readAllLines(dir.resolve("metrics.jsonl"))) {
      JsonNode n = JSON.readTree(line);
      Map<String, Double> m = new HashMap<>();
      n.properties().forEach(e -> m.put(e.getKey(), e.getValue().asDouble()));
      double v = HeldOut.value(m);
      int step = n.get("step").asInt();
      if (step == 0) {
        startValue = v;
      }
      if (step > 0 && v > bestValue) { // the first of equal values, as the run keeps it
        bestStep = step;
        bestValue = v;
      }
    }
    assertTrue(bestStep > 0, "every step validated: " + printed);
    assertEquals(
        bestStep, BestCheckpoint.read(dir).orElseThrow().step(), "best_checkpointed_iteration");
    assertEquals(bestValue, BestCheckpoint.read(dir).orElseThrow().score(), 1e-12);
    Set<String> kept;
    try (Stream<Path> s = Files.list(dir)) {
      kept =
          s.map(p -> p.getFileName().toString())
              .filter(n -> n.startsWith("global_step_"))
              .collect(Collectors.toSet());
    }
    assertEquals(Set.of("global_step_" + bestStep, "global_step_6"), kept, printed);
    assertTrue(
        Files.isRegularFile(
            dir.resolve("global_step_" + bestStep).resolve(CheckpointManifest.FILE)));
    assertTrue(printed.contains("best validation so far"), printed);
    assertTrue(!Double.isNaN(startValue), "validated before training: " + printed);
    // the end of the run says when the starting model beat every trained step, and only then
    assertEquals(
        startValue > bestValue,
        printed.contains("no trained step beat the starting model"),
        printed);
  }
}
