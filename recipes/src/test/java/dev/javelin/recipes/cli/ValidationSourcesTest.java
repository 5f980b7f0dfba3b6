package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two validation files of different data sources in one run: each source gets VeRL's own {@code
 * val-core}/{@code val-aux} keys, and their values are the means of that source's scores.
 */
class ValidationSourcesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String GSM8K =
      """
      {"question": "2 plus 3", "answer": "#### 5"}
      {"question": "4 plus 4", "answer": "#### 8"}
      {"question": "1 plus 6", "answer": "#### 7"}
      """;
  private static final String MATH =
      """
      {"problem": "1 plus 1", "answer": "2"}
      {"problem": "3 plus 3", "answer": "6"}
      """;

  private static final String RECIPE =
      """
      data:
        train_files: [%1$s/gsm8k-sums.jsonl]
        val_files: [%1$s/gsm8k-sums.jsonl, %1$s/math-sums.jsonl]
        prompt_template: raw
        train_batch_size: 3
        max_prompt_length: 16
        max_response_length: 6
      actor_rollout_ref:
        model:
          tokenizer_path: char
          init: {hidden: 16, intermediate: 32, layers: 1, heads: 2, kv_heads: 2, max_positions: 32}
        actor: {ppo_mini_batch_size: 3, ppo_micro_batch_size_per_gpu: 6}
        rollout: {n: 2, val_kwargs: {n: 4, do_sample: true, temperature: 1.0}}
      trainer:
        total_training_steps: 1
        samplers: 1
        ray: "off"
        log_val_generations: 100
        default_local_dir: %1$s/run
      """;

  @Test
  void eachDataSourceIsReportedUnderItsOwnName(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("gsm8k-sums.jsonl"), GSM8K);
    Files.writeString(dir.resolve("math-sums.jsonl"), MATH);
    Path recipe = Files.writeString(dir.resolve("two-sources.yaml"), RECIPE.formatted(dir));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {"run", recipe.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(out, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, printed);
    Map<String, Double> step0 = line(dir.resolve("run/metrics.jsonl"), 0);
    for (String src : List.of("openai/gsm8k", "HuggingFaceH4/MATH-500")) {
      for (String key :
          List.of(
              "val-core/" + src + "/acc/mean@1",
              "val-aux/" + src + "/reward/mean@1",
              "val-core/" + src + "/acc/mean@4",
              "val-core/" + src + "/acc/best@4/mean",
              "val-core/" + src + "/acc/maj@4/mean",
              "val-aux/" + src + "/acc/best@2/mean",
              "val-aux/" + src + "/acc/worst@4/mean",
              "val-aux/" + src + "/acc/maj@2/std")) {
        assertTrue(step0.containsKey(key), "step 0 lacks " + key + ": " + step0.keySet());
      }
      double best = step0.get("val-core/" + src + "/acc/best@4/mean");
      double worst = step0.get("val-aux/" + src + "/acc/worst@4/mean");
      double mean = step0.get("val-core/" + src + "/acc/mean@4");
      assertTrue(worst <= mean && mean <= best, worst + " <= " + mean + " <= " + best);
    }
    assertFalse(step0.keySet().stream().anyMatch(k -> k.startsWith("val/")), step0.toString());
    // Each source's greedy mean score is the mean of its logged greedy generations' scores.
    Map<String, double[]> logged = new HashMap<>(); // source -> {sum, count}
    for (String l : Files.readAllLines(dir.resolve("run/val_generations.jsonl"))) {
      JsonNode n = JSON.readTree(l);
      if (n.get("step").asInt() == 0) {
        double[] s = logged.computeIfAbsent(n.get("data_source").asText(), k -> new double[2]);
        s[0] += n.get("score").asDouble();
        s[1]++;
      }
    }
    assertEquals(3, logged.get("openai/gsm8k")[1]);
    assertEquals(2, logged.get("HuggingFaceH4/MATH-500")[1]);
    logged.forEach(
        (src, s) ->
            assertEquals(s[0] / s[1], step0.get("val-aux/" + src + "/reward/mean@1"), 1e-5, src));
  }

  @Test
  void noGenerationsAreLoggedByDefault(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("gsm8k-sums.jsonl"), GSM8K);
    Files.writeString(dir.resolve("math-sums.jsonl"), MATH);
    String yaml =
        RECIPE.formatted(dir).replace("  log_val_generations: 100\n", "").replace("n: 4,", "n: 1,");
    Path recipe = Files.writeString(dir.resolve("default.yaml"), yaml);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
    assertEquals(
        0,
        Main.run(new String[] {"run", recipe.toString()}, ps, ps),
        out.toString(StandardCharsets.UTF_8));
    assertFalse(Files.exists(dir.resolve("run/val_generations.jsonl")));
    Map<String, Double> step0 = line(dir.resolve("run/metrics.jsonl"), 0);
    assertTrue(step0.containsKey("val-core/HuggingFaceH4/MATH-500/acc/mean@1"), step0.toString());
    assertFalse(step0.keySet().stream().anyMatch(k -> k.contains("@4")), step0.toString());
  }

  private static Map<String, Double> line(Path metrics, int step) throws Exception {
    for (String l : Files.readAllLines(metrics)) {
      JsonNode n = JSON.readTree(l);
      if (n.get("step").asInt() == step) {
        Map<String, Double> m = new HashMap<>();
        n.properties().forEach(e -> m.put(e.getKey(), e.getValue().asDouble()));
        return m;
      }
    }
    throw new AssertionError("no step " + step + " in " + metrics);
  }
}
