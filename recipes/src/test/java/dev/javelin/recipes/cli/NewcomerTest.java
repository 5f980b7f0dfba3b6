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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newcomer's first hour, in one short pass: the main command, eval, a reward from a .java file, a
 * custom JSONL dataset, a typo, a truncated checkpoint, and Ctrl-C (a real SIGINT to a launched
 * {@code javelin run} process) then a resume. Every exit code is the documented one and no output
 * line is a Java stack frame.
 */
class NewcomerTest {
  @TempDir Path tmp;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final List<String> transcript = new ArrayList<>();

  private int run(String... args) {
    out.reset();
    err.reset();
    int code =
        Main.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    transcript.add(out.toString(StandardCharsets.UTF_8));
    transcript.add(err.toString(StandardCharsets.UTF_8));
    return code;
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void firstHour() throws Exception {
    Path dir = tmp.resolve("run");
    assertEquals(0, run(TinyRecipe.runArgs(dir, 2, "trainer.save_freq=1")), err());
    assertEquals(0, run("eval", dir.toString()), err());

    Path src = tmp.resolve("LengthPenalty.java");
    Files.writeString(src, CustomRewardRunTest.REWARD);
    assertEquals(
        0,
        run(
            TinyRecipe.runArgs(
                tmp.resolve("reward"),
                1,
                "custom_reward_function.path=" + src,
                "custom_reward_function.name=com.example.LengthPenalty")),
        err());

    String readme = Files.readString(Path.of("README.md"));
    Path data =
        Files.writeString(
            tmp.resolve("sums.jsonl"), RecipeReadmeExampleTest.block(readme, "jsonl"));
    String yaml =
        RecipeReadmeExampleTest.block(readme, "yaml").replace("[sums.jsonl]", "[" + data + "]");
    Path recipe = Files.writeString(tmp.resolve("sums.yaml"), yaml);
    assertEquals(
        0,
        run("run", recipe.toString(), "trainer.default_local_dir=" + tmp.resolve("sums")),
        err());

    assertEquals(2, run(TinyRecipe.runArgs(tmp.resolve("typo"), 1, "data.train_bach_size=4")));
    assertTrue(err().contains("did you mean 'data.train_batch_size'"), err());

    Path ckpt = dir.resolve("global_step_2");
    Path weights = ckpt.resolve("model.safetensors");
    byte[] bytes = Files.readAllBytes(weights);
    Files.write(weights, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    assertEquals(2, run("eval", ckpt.toString()));
    assertEquals(1, err().strip().lines().count(), err());
    assertTrue(err().contains(weights.getFileName().toString()), err());

    ctrlCThenResume(tmp.resolve("ctrl-c"));
    ctrlCDuringWarmUp();

    for (String text : transcript) {
      assertFalse(text.lines().anyMatch(l -> l.matches("^\\s+at [a-z].*")), text);
    }
  }

  /** Ctrl-C in a launched run saves a checkpoint and exits 1; the rerun resumes after it. */
  private void ctrlCThenResume(Path dir) throws Exception {
    String printed = interruptLaunched(TinyRecipe.runArgs(dir, 100_000), dir, 3);
    assertTrue(
        printed.contains("interrupted: finishing the step and saving a checkpoint"), printed);
    int saved =
        Integer.parseInt(
            Files.readString(dir.resolve("latest_checkpointed_iteration.txt")).strip());
    assertTrue(saved >= 2 && Files.isDirectory(dir.resolve("global_step_" + saved)), "" + saved);

    assertEquals(0, run(TinyRecipe.runArgs(dir, saved + 2)), err());
    List<Long> steps = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("metrics.jsonl"))) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("\"step\":([0-9]+)").matcher(line);
      assertTrue(m.find(), line);
      steps.add(Long.parseLong(m.group(1)));
    }
    assertEquals(saved + 2L, steps.get(steps.size() - 1), steps.toString());
    assertEquals(steps.stream().distinct().count(), steps.size(), "a step twice: " + steps);
    assertEquals(
        saved + 2,
        Integer.parseInt(
            Files.readString(dir.resolve("latest_checkpointed_iteration.txt")).strip()));
  }

  /**
   * Ctrl-C during the recipe's warm-up ends the command with exit 1 before GRPO starts, and moves
   * the half-trained model aside so the next run warms up again rather than starting from it.
   */
  private void ctrlCDuringWarmUp() throws Exception {
    Path sftDir = tmp.resolve("warm-run");
    Path model = tmp.resolve("warm-model");
    Path warm =
        Files.writeString(
            tmp.resolve("warm.yaml"),
            String.join(
                "\n",
                "data:",
                "  synthetic: {task: arith, digits: 1, train_size: 64, val_size: 4}",
                "  train_batch_size: 4",
                "  max_prompt_length: 8",
                "  max_response_length: 3",
                "  prompt_prefix: \"<bos>\"",
                "actor_rollout_ref:",
                "  model:",
                "    tokenizer_path: char",
                "    init: {hidden: 16, intermediate: 32, layers: 1, heads: 2, kv_heads: 2,"
                    + " max_positions: 16}",
                "  actor: {ppo_mini_batch_size: 4}",
                "trainer:",
                "  total_training_steps: 100000",
                "  test_freq: -1",
                "  samplers: 1",
                "  default_local_dir: " + sftDir,
                "sft: {output_dir: " + model + "}",
                ""));
    String[] args =
        TinyRecipe.runArgs(
            tmp.resolve("after-warm"),
            2,
            "actor_rollout_ref.model.path=" + model,
            "actor_rollout_ref.model.warmup_recipe=" + warm);
    String printed = interruptLaunched(args, sftDir, 2);
    assertTrue(printed.contains("the warm-up was interrupted at step"), printed);
    assertFalse(printed.contains("javelin run "), printed);
    assertFalse(Files.exists(model.resolve("config.json")), printed);
    try (var aside = Files.list(tmp)) {
      assertTrue(
          aside.anyMatch(p -> p.getFileName().toString().startsWith("warm-model.interrupted-")),
          printed);
    }
  }

  /**
   * Launches {@code javelin} with {@code args} as its own process, sends it SIGINT once {@code
   * runDir}'s metrics.jsonl has {@code lines} lines, and returns what it printed; it must exit 1.
   */
  private String interruptLaunched(String[] args, Path runDir, int lines) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "env",
                "--default-signal=INT", // Ctrl-C reaches it even if this JVM ignores SIGINT
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@src/main/resources/dev/javelin/recipes/add-opens.args",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
    cmd.addAll(List.of(args));
    Path log = Files.createTempFile(tmp, "launched", ".log");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      Path metrics = runDir.resolve("metrics.jsonl");
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!(Files.exists(metrics) && Files.readAllLines(metrics).size() >= lines)) {
        assertTrue(p.isAlive() && System.nanoTime() < until, Files.readString(log));
        Thread.sleep(20);
      }
      assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor());
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "Ctrl-C did not stop the run");
      String printed = Files.readString(log);
      transcript.add(printed);
      assertEquals(1, p.exitValue(), printed);
      return printed;
    } finally {
      p.destroyForcibly();
    }
  }
}
