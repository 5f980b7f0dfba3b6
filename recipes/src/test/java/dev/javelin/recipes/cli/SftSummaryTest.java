package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SFT warm-up's console: the bar shows real tokens/s, the end line says when {@code
 * sft.stop_at_accuracy} stopped it, and the summary names the model and the metrics.jsonl it wrote.
 */
class SftSummaryTest {
  @TempDir Path tmp;

  @Test
  void barEndLineAndSummary() throws Exception {
    Path model = tmp.resolve("model");
    Path runDir = tmp.resolve("sft-run");
    // Four rows trained and validated on: the tiny model learns them in a few dozen steps.
    Path rows =
        Files.writeString(
            tmp.resolve("sums.jsonl"),
            """
            {"question": "2 plus 3", "answer": "#### 5"}
            {"question": "4 plus 4", "answer": "#### 8"}
            {"question": "1 plus 6", "answer": "#### 7"}
            {"question": "3 plus 6", "answer": "#### 9"}
            """);
    List<String> args =
        new ArrayList<>(
            List.of(
                "sft",
                "recipes/arith-sft.yaml",
                "sft.output_dir=" + model,
                "sft.stop_at_accuracy=0.5",
                "data.synthetic.task=none",
                "data.train_files=[" + rows + "]",
                "data.val_files=[" + rows + "]",
                "data.file_format=gsm8k",
                "data.prompt_template=raw",
                "data.prompt_prefix=",
                "data.train_batch_size=4",
                "data.max_prompt_length=12",
                "data.max_response_length=3",
                "custom_reward_function.reward_kwargs={gsm8k: {method: flexible}}",
                "actor_rollout_ref.actor.optim.lr=1e-2",
                "actor_rollout_ref.actor.optim.lr_warmup_steps=0",
                "actor_rollout_ref.actor.ppo_mini_batch_size=4",
                "actor_rollout_ref.model.init.hidden=32",
                "actor_rollout_ref.model.init.intermediate=64",
                "actor_rollout_ref.model.init.layers=1",
                "actor_rollout_ref.model.init.heads=2",
                "actor_rollout_ref.model.init.kv_heads=2",
                "trainer.total_training_steps=400",
                "trainer.test_freq=5",
                "trainer.samplers=1",
                "trainer.logger=['console','tensorboard']",
                "trainer.default_local_dir=" + runDir));
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(text, true, StandardCharsets.UTF_8);
    PrintStream stdout = System.out;
    int code;
    System.setOut(ps); // the progress bar writes to standard output
    try {
      code = Main.run(args.toArray(String[]::new), ps, ps);
    } finally {
      System.setOut(stdout);
    }
    String all = text.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, all);
    Matcher bar = Pattern.compile("\\| ([0-9]+) tok/s \\|").matcher(all);
    assertTrue(bar.find(), all);
    assertTrue(Long.parseLong(bar.group(1)) > 0, "the bar shows 0 tok/s:\n" + all);
    Matcher end =
        Pattern.compile(
                "finished after step ([0-9]+) in \\S+ \\(sft.stop_at_accuracy 50.0% reached:"
                    + " [0-9.]+% at step ([0-9]+) of 400\\)")
            .matcher(all);
    assertTrue(end.find(), all);
    assertEquals(end.group(1), end.group(2), all);
    assertTrue(Integer.parseInt(end.group(1)) < 400, all);
    Path metrics = runDir.resolve("metrics.jsonl").toAbsolutePath();
    assertTrue(all.contains("metrics.jsonl: " + metrics), all);
    assertTrue(
        Files.readString(metrics).contains("\"perf/throughput\":"), Files.readString(metrics));
    assertTrue(all.contains("model: " + model.toAbsolutePath()), all);
    assertFalse(all.contains("checkpoints and metrics.jsonl: " + model.toAbsolutePath()), all);

    // trainer.logger reaches the warm-up too: one TensorBoard scalar per step that logged it
    long steps = Files.readAllLines(metrics).stream().filter(l -> l.contains(THROUGHPUT)).count();
    assertTrue(steps > 1, "" + steps);
    assertEquals(steps, occurrences(eventFile(runDir.resolve("tensorboard")), THROUGHPUT));
  }

  private static final String THROUGHPUT = "perf/throughput";

  private static byte[] eventFile(Path dir) throws Exception {
    try (var files = Files.list(dir)) {
      Path f =
          files
              .filter(p -> p.getFileName().toString().startsWith("events.out.tfevents."))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no event file in " + dir));
      return Files.readAllBytes(f);
    }
  }

  /** How often {@code tag} appears in an event file (each scalar record carries its tag). */
  private static long occurrences(byte[] file, String tag) {
    String text = new String(file, StandardCharsets.ISO_8859_1);
    long n = 0;
    for (int i = text.indexOf(tag); i >= 0; i = text.indexOf(tag, i + 1)) {
      n++;
    }
    return n;
  }
}
