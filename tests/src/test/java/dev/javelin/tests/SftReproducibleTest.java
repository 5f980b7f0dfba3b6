package dev.javelin.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.recipes.cli.Commands;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two SFT warm-ups with the same seed see the same batches and end with the same weights (the data
 * order once followed identity hashes, so each warm-up stopped somewhere else).
 */
class SftReproducibleTest {
  private static final Commands QUIET =
      new Commands(new PrintStream(OutputStream.nullOutputStream()));

  @Test
  void sameSeedSameWarmUp(@TempDir Path tmp) throws Exception {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    QUIET.sft("recipes/arith-sft.yaml", overrides(a));
    QUIET.sft("recipes/arith-sft.yaml", overrides(b));

    Map<Integer, Double> lossA = TinyRuns.series(a, "sft/loss");
    assertEquals(4, lossA.size(), "one loss per step");
    assertEquals(lossA, TinyRuns.series(b, "sft/loss"), "per-step SFT loss");
    assertArrayEquals(
        Files.readAllBytes(a.resolve("model/model.safetensors")),
        Files.readAllBytes(b.resolve("model/model.safetensors")),
        "weights after the warm-up");
  }

  private static List<String> overrides(Path dir) {
    return TinyRuns.tiny(dir, 4, "trainer.ray=off", "sft.output_dir=" + dir.resolve("model"));
  }
}
