package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.recipes.config.Recipes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bundled recipe runs as shipped for one step, only its sizes overridden (and, for the
 * recipes meant for a downloaded checkpoint, the model: the SmolLM2 GGUF the build installs, or the
 * documented CPU smoke command). A new recipe without an entry here fails the test.
 */
class ShippedRecipesTest {
  private static final Path SOURCES = Path.of("src/main/resources/recipes");
  private static final List<String> TINY_MODEL =
      List.of(
          "actor_rollout_ref.model.init.hidden=16",
          "actor_rollout_ref.model.init.intermediate=32",
          "actor_rollout_ref.model.init.layers=1",
          "actor_rollout_ref.model.init.heads=2",
          "actor_rollout_ref.model.init.kv_heads=2");
  private static final List<String> TINY_BATCH =
      List.of(
          "data.train_batch_size=2",
          "actor_rollout_ref.actor.ppo_mini_batch_size=2",
          "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2",
          "trainer.samplers=1",
          "trainer.total_training_steps=1");

  @TempDir Path tmp;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  static Stream<String> shipped() throws IOException {
    try (Stream<Path> files = Files.list(SOURCES)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".yaml"))
          .map(n -> n.substring(0, n.length() - ".yaml".length()))
          .sorted()
          .toList()
          .stream();
    }
  }

  /** {@code ./javelin recipes} and the recipe-not-found message list every shipped recipe. */
  @Test
  void theBundledListNamesEveryShippedRecipe() throws IOException {
    assertEquals(shipped().toList(), Recipes.bundled().stream().sorted().toList());
  }

  @ParameterizedTest
  @MethodSource("shipped")
  void runsAsShippedForAStep(String name) throws Exception {
    switch (name) {
      case "arith-sft" -> sft(tmp.resolve("model"));
      case "arith-grpo" -> {
        Path model = tmp.resolve("model");
        sft(model);
        run(
            "arith-grpo",
            "actor_rollout_ref.model.path=" + model,
            "data.synthetic.train_size=8",
            "data.synthetic.val_size=2",
            "actor_rollout_ref.rollout.n=2");
      }
      case "countdown-grpo" ->
          run(
              "countdown-grpo",
              concat(
                  TINY_MODEL,
                  "data.synthetic.train_size=4",
                  "data.synthetic.val_size=2",
                  "data.max_response_length=4",
                  "actor_rollout_ref.rollout.n=2"));
      case "gsm8k-grpo" -> gsm8k();
      case "smollm2-arith-grpo" -> {
        // Its steps run in SmolLm2GrpoTest (the model needs that test's heap); here: its default
        // model path, relative to the checkout as ./javelin runs it, is the GGUF the build
        // installs.
        Path root = Path.of(System.getProperty("javelin.root"));
        String path = Recipes.load("recipes/" + name + ".yaml", List.of()).model().path();
        assertEquals(
            ConvertCommandTest.smollm2().toAbsolutePath().normalize(),
            root.resolve(path).toAbsolutePath().normalize());
      }
      case "dapo-math" ->
          run(
              "dapo-math",
              concat(
                  TINY_MODEL,
                  "actor_rollout_ref.model.path=",
                  "actor_rollout_ref.model.tokenizer_path=" + ConvertCommandTest.smollm2(),
                  "data.train_files=[" + dataset("gsm8k/train.jsonl") + "]",
                  "data.val_files=[" + dataset("math500/test.jsonl") + "]",
                  "data.gen_batch_size=2",
                  "data.max_response_length=4",
                  "data.val_max_samples=2",
                  // A random model answers nothing right, so dynamic sampling would filter every
                  // group until its cap; the tests module's DynamicSamplingTest covers the filter.
                  "algorithm.filter_groups.enable=false",
                  "reward_model.overlong_buffer.len=2",
                  "actor_rollout_ref.rollout.n=2"));
      case "math500-eval", "gsm8k-eval" -> {
        String file = name.equals("gsm8k-eval") ? "gsm8k/test.jsonl" : "math500/test.jsonl";
        String[] args = {
          "eval",
          "recipes/" + name + ".yaml",
          "actor_rollout_ref.model.path=",
          "actor_rollout_ref.model.tokenizer_path=" + ConvertCommandTest.smollm2(),
          "actor_rollout_ref.model.init.hidden=16",
          "actor_rollout_ref.model.init.intermediate=32",
          "actor_rollout_ref.model.init.layers=1",
          "actor_rollout_ref.model.init.heads=2",
          "actor_rollout_ref.model.init.kv_heads=2",
          "actor_rollout_ref.model.init.max_positions=1028",
          "data.val_files=[" + dataset(file) + "]",
          "data.val_max_samples=2",
          "data.max_response_length=4"
        };
        assertEquals(0, javelin(args), output());
        assertTrue(output().contains("val-core/"), output());
      }
      default -> fail("shipped recipe " + name + " has no one-step run in this test: add one");
    }
  }

  /** arith-sft, one step, writing its model to {@code model}. */
  private void sft(Path model) throws IOException {
    List<String> args =
        new ArrayList<>(List.of("sft", "recipes/arith-sft.yaml", "sft.output_dir=" + model));
    args.addAll(TINY_MODEL);
    args.addAll(TINY_BATCH);
    args.addAll(
        List.of(
            "data.synthetic.train_size=8",
            "data.synthetic.val_size=2",
            "trainer.default_local_dir=" + tmp.resolve("sft-run")));
    assertEquals(0, javelin(args.toArray(String[]::new)), output());
    assertTrue(Files.isRegularFile(model.resolve("config.json")), output());
  }

  /** GRPO with {@code recipe}, one step, in a fresh run directory; checks its metrics line. */
  private void run(String recipe, String... overrides) throws IOException {
    Path dir = tmp.resolve(recipe);
    List<String> args = new ArrayList<>(List.of("run", "recipes/" + recipe + ".yaml"));
    args.addAll(TINY_BATCH);
    args.addAll(Arrays.asList(overrides));
    args.add("trainer.default_local_dir=" + dir);
    assertEquals(0, javelin(args.toArray(String[]::new)), output());
    assertTrue(Files.readString(dir.resolve("metrics.jsonl")).contains("\"step\":1"), output());
  }

  /**
   * gsm8k-grpo: without the model at its default path it stops naming the path; the CPU smoke
   * command its header documents runs.
   */
  private void gsm8k() throws IOException {
    String data = "data.train_files=[" + dataset("gsm8k/train.jsonl") + "]";
    String val = "data.val_files=[" + dataset("gsm8k/test.jsonl") + "]";
    assertEquals(2, javelin("run", "recipes/gsm8k-grpo.yaml", data, val), output());
    assertTrue(output().contains("models/Qwen2.5-0.5B-Instruct"), output());
    assertEquals(1, output().strip().lines().count(), output());

    List<String> smoke = documentedSmokeCommand(SOURCES.resolve("gsm8k-grpo.yaml"));
    assertEquals(List.of("./javelin", "run", "recipes/gsm8k-grpo.yaml"), smoke.subList(0, 3));
    List<String> args = new ArrayList<>(smoke.subList(1, smoke.size()));
    args.addAll(List.of(data, val, "trainer.default_local_dir=" + tmp.resolve("gsm8k")));
    assertEquals(0, javelin(args.toArray(String[]::new)), output());
  }

  /** The {@code ./javelin} command under "CPU smoke run" in a recipe's header, as words. */
  static List<String> documentedSmokeCommand(Path recipe) throws IOException {
    List<String> lines = Files.readAllLines(recipe);
    StringBuilder cmd = new StringBuilder();
    boolean inSmoke = false;
    for (String line : lines) {
      if (!line.startsWith("#")) {
        break;
      }
      String text = line.substring(1).strip();
      if (text.startsWith("CPU smoke run")) {
        inSmoke = true;
      } else if (inSmoke && (cmd.length() > 0 || text.startsWith("./javelin"))) {
        cmd.append(' ').append(text.endsWith("\\") ? text.substring(0, text.length() - 1) : text);
        if (!text.endsWith("\\")) {
          break;
        }
      }
    }
    assertFalse(cmd.isEmpty(), "no CPU smoke command in the header of " + recipe);
    return List.of(cmd.toString().strip().split("\\s+"));
  }

  private static List<String> concat(List<String> base, String... more) {
    List<String> all = new ArrayList<>(base);
    all.addAll(Arrays.asList(more));
    return all;
  }

  private void run(String recipe, List<String> overrides) throws IOException {
    run(recipe, overrides.toArray(String[]::new));
  }

  private static Path dataset(String file) {
    Path p = Path.of(System.getProperty("javelin.root", ".."), "..", "shared", "datasets", file);
    assertTrue(Files.isRegularFile(p), "shared dataset missing: " + p);
    return p;
  }

  private int javelin(String... args) {
    out.reset();
    PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
    return Main.run(args, ps, ps);
  }

  private String output() {
    return out.toString(StandardCharsets.UTF_8);
  }
}
