package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code javelin eval} reports its time, tokens/s and sample generations, also in the run dir. */
class EvalReportTest {
  @TempDir Path tmp;

  @Test
  void evalOfARunDirectoryReportsTimeThroughputAndSamples() throws Exception {
    Path dir = tmp.resolve("run");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(text, true, StandardCharsets.UTF_8);
    assertEquals(
        0,
        Main.run(TinyRecipe.runArgs(dir, 1, "trainer.save_freq=1"), ps, ps),
        text.toString(StandardCharsets.UTF_8));
    text.reset();
    assertEquals(
        0,
        Main.run(new String[] {"eval", dir.toString()}, ps, ps),
        text.toString(StandardCharsets.UTF_8));
    String printed = text.toString(StandardCharsets.UTF_8);
    assertTrue(
        printed.matches("(?s).*eval took [0-9.]+ s: [0-9]+ response tokens, [0-9]+ tok/s.*"),
        printed);
    assertTrue(printed.contains("sample 1 (score "), printed);

    List<String> lines = Files.readAllLines(dir.resolve("eval.jsonl"));
    assertEquals(1, lines.size());
    JsonNode report = new ObjectMapper().readTree(lines.get(0));
    assertTrue(report.get("seconds").asDouble() > 0, lines.get(0));
    assertTrue(report.get("response_tokens").asLong() > 0, lines.get(0));
    assertTrue(report.get("tokens_per_s").asDouble() > 0, lines.get(0));
    assertTrue(report.get("model").asText().endsWith("global_step_1"), lines.get(0));
    assertTrue(report.get("metrics").has("val-core/synthetic/arith/acc/mean@1"), lines.get(0));
    JsonNode sample = report.get("samples").get(0);
    assertTrue(sample.has("prompt") && sample.has("response") && sample.has("score"), lines.get(0));
    assertTrue(Files.readString(dir.resolve("eval_generations.jsonl")).contains("\"score\":"));
  }
}
