package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.driver.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped recipes from a real pretrained checkpoint (SmolLM2-135M-Instruct, the Q4_1 GGUF the
 * build installs), only sizes overridden, in Ray local mode with the tokenizer and chat template
 * from the GGUF and the architecture from the checkpoint: two steps of smollm2-arith-grpo (the
 * recipe made for it) and of gsm8k-grpo (any Llama/Qwen2 checkpoint by path).
 */
class SmolLm2GrpoTest {
  @Test
  void twoStepsOfTheRecipeMadeForIt(@TempDir Path dir) throws Exception {
    Path gguf = ConvertCommandTest.smollm2();
    List<String> printed =
        twoSteps(
            dir,
            "recipes/smollm2-arith-grpo.yaml",
            List.of(
                "actor_rollout_ref.model.path=" + gguf,
                "data.synthetic.train_size=8",
                "data.synthetic.val_size=2",
                "data.train_batch_size=2",
                "data.max_response_length=8",
                "trainer.test_freq=2",
                "trainer.save_freq=2",
                "actor_rollout_ref.rollout.n=2",
                "actor_rollout_ref.actor.ppo_mini_batch_size=2",
                "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4"));
    assertTrue(
        printed.stream().anyMatch(l -> l.startsWith("held-out greedy accuracy: ")), "" + printed);
  }

  @Test
  void twoGrpoStepsFromTheGguf(@TempDir Path dir) throws Exception {
    Path gguf = ConvertCommandTest.smollm2();
    Path data =
        Path.of(System.getProperty("javelin.root", ".."), "..", "shared", "datasets", "gsm8k");
    assertTrue(Files.isRegularFile(data.resolve("train.jsonl")), "GSM8K missing under " + data);
    twoSteps(
        dir,
        "recipes/gsm8k-grpo.yaml",
        List.of(
            "actor_rollout_ref.model.path=" + gguf,
            "data.train_files=[" + data.resolve("train.jsonl") + "]",
            "data.val_files=[" + data.resolve("test.jsonl") + "]",
            "trainer.test_freq=100",
            "trainer.save_freq=2",
            "data.train_batch_size=2",
            "data.max_prompt_length=192",
            "data.max_response_length=16",
            "data.val_max_samples=2",
            "actor_rollout_ref.rollout.n=2",
            "actor_rollout_ref.actor.ppo_mini_batch_size=2",
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2"));
  }

  /**
   * Runs {@code recipe} for two steps with {@code overrides} into {@code dir}, checks the metrics
   * and the whole-HF-directory checkpoint of step 2, and returns the console lines.
   */
  private static List<String> twoSteps(Path dir, String recipe, List<String> overrides)
      throws Exception {
    List<String> all = new java.util.ArrayList<>(overrides);
    all.addAll(
        List.of(
            "trainer.default_local_dir=" + dir,
            "trainer.total_training_steps=2",
            "trainer.samplers=1"));
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunSummary summary =
        new Commands(new PrintStream(console, true, StandardCharsets.UTF_8)).run(recipe, all);
    String printed = console.toString(StandardCharsets.UTF_8);
    assertEquals(2, summary.lastStep(), printed);
    assertFalse(summary.stopped(), printed);
    List<String> lines = Files.readAllLines(dir.resolve("metrics.jsonl"));
    assertEquals(2, lines.stream().filter(l -> l.contains("\"actor/pg_loss\"")).count(), printed);
    for (String line : lines) {
      JsonNode m = new ObjectMapper().readTree(line);
      if (m.has("actor/grad_norm")) {
        assertTrue(Double.isFinite(m.get("actor/grad_norm").asDouble()), line);
      }
    }
    try (var found = Files.find(dir, 3, (p, a) -> p.endsWith("config.json"))) {
      Path config =
          found
              .findFirst()
              .orElseThrow(() -> new AssertionError("no checkpoint config.json in " + dir));
      JsonNode c = new ObjectMapper().readTree(config.toFile());
      assertEquals("llama", c.get("model_type").asText());
      // The checkpoint is a whole Hugging Face directory: transformers loads it as it is.
      Path ckpt = config.getParent();
      for (String f :
          List.of("tokenizer.json", "tokenizer_config.json", "generation_config.json")) {
        assertTrue(Files.isRegularFile(ckpt.resolve(f)), f + " missing in " + ckpt);
      }
      int eos = c.get("eos_token_id").asInt();
      assertEquals(
          eos,
          new ObjectMapper()
              .readTree(ckpt.resolve("generation_config.json").toFile())
              .get("eos_token_id")
              .asInt());
      assertTrue(
          Files.readString(ckpt.resolve("tokenizer_config.json")).contains("chat_template"),
          "no chat template in the checkpoint's tokenizer_config.json");
    }
    return printed.lines().toList();
  }
}
