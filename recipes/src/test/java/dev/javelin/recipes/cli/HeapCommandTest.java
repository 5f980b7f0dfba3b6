package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.driver.MemoryBudget;
import dev.javelin.recipes.driver.ModelInit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code javelin heap}: the heap the launcher gives a command without JAVELIN_HEAP is the memory
 * estimate that command checks, with its headroom, and at least the 4g default; and the launcher
 * really starts the JVM with it.
 */
class HeapCommandTest {
  @TempDir Path tmp;

  private static String heap(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
    String[] all = new String[args.length + 1];
    all[0] = "heap";
    System.arraycopy(args, 0, all, 1, args.length);
    assertEquals(0, Main.run(all, ps, ps));
    return out.toString(StandardCharsets.UTF_8).strip();
  }

  @Test
  void aTinyRecipeGetsTheDefaultAndABadOneLeavesTheErrorToTheCommand() {
    assertEquals("4g", heap("run", "recipes/arith-grpo.yaml")); // its warm-up's tiny model
    assertEquals("4g", heap("run", "recipes/arith-grpo.yaml", "data.train_bach_size=4"));
    assertEquals("4g", heap("run"));
  }

  @Test
  void aRealCheckpointGetsItsEstimateWithHeadroom() throws Exception {
    String gguf = ConvertCommandTest.smollm2().toString();
    // the README's SmolLM2 eval: 20 prompts, one sampler
    List<String> keys =
        List.of(
            "actor_rollout_ref.model.path=" + gguf,
            "data.val_max_samples=20",
            "trainer.samplers=1");
    RecipeConfig eval = Recipes.load("recipes/gsm8k-eval.yaml", keys);
    MemoryBudget budget = MemoryBudget.forEval(ModelInit.config(eval), eval, 20);
    long gb = (budget.wantedHeap() + (1L << 30) - 1) >> 30;
    assertTrue(gb > HeapCommand.DEFAULT_GB, budget.describe());
    assertEquals(gb + "g", heap(concat(List.of("eval", "recipes/gsm8k-eval.yaml"), keys)));

    // the README's SmolLM2 GRPO command, with --samplers as the command reads it
    List<String> small =
        List.of(
            keys.get(0),
            "data.train_batch_size=2",
            "actor_rollout_ref.rollout.n=2",
            "actor_rollout_ref.actor.ppo_mini_batch_size=2",
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2",
            "data.max_response_length=32",
            "actor_rollout_ref.model.enable_gradient_checkpointing=true");
    RecipeConfig run =
        Recipes.load("recipes/gsm8k-grpo.yaml", concatList(small, List.of("trainer.samplers=3")));
    long runGb = (MemoryBudget.of(ModelInit.config(run), run).wantedHeap() + (1L << 30) - 1) >> 30;
    assertTrue(runGb > gb, "three samplers and a train step need more than the eval");
    assertEquals(
        runGb + "g",
        heap(
            concat(
                List.of("run", "recipes/gsm8k-grpo.yaml"),
                concatList(small, List.of("--samplers", "3")))));
  }

  private static String[] concat(List<String> a, List<String> b) {
    return concatList(a, b).toArray(String[]::new);
  }

  private static List<String> concatList(List<String> a, List<String> b) {
    List<String> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /** The launcher starts the command's JVM with that heap (the command then fails on its data). */
  @Test
  void theLauncherUsesIt() throws Exception {
    String gguf = ConvertCommandTest.smollm2().toString();
    String[] args = {
      "eval",
      "recipes/gsm8k-eval.yaml",
      "actor_rollout_ref.model.path=" + gguf,
      "data.val_max_samples=20",
      "trainer.samplers=1",
      "data.val_files=[" + tmp.resolve("missing.jsonl") + "]"
    };
    String want = heap(args);
    Path root = Path.of(System.getProperty("javelin.root"));
    ProcessBuilder pb = new ProcessBuilder(root.resolve("javelin").toString());
    pb.command().addAll(List.of(args));
    pb.environment().remove("JAVELIN_HEAP");
    pb.environment().put("JAVELIN_CLASSPATH", System.getProperty("java.class.path"));
    pb.environment().put("JAVELIN_JAVA_OPTS", "-XshowSettings:vm");
    pb.environment()
        .put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":/usr/bin:/bin");
    Path log = tmp.resolve("launcher.log");
    Process p = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the launcher did not return");
    String printed = Files.readString(log);
    assertEquals(2, p.exitValue(), printed); // the missing data file, after the JVM started
    Matcher m = Pattern.compile("Max\\. Heap Size[^:]*: ([0-9.]+)G").matcher(printed);
    assertTrue(m.find(), printed);
    assertEquals(
        Double.parseDouble(want.replace("g", "")), Double.parseDouble(m.group(1)), printed);
  }
}
