package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.driver.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nothing in a run directory is lost to a failed start or a mistaken fresh start. */
class RunDirTest {
  @TempDir Path tmp;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private int run(String... args) {
    err.reset();
    out.reset();
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void failedStartKeepsTheRecipeAndDisableRefusesToOverwrite() throws Exception {
    Path dir = tmp.resolve("run");
    assertEquals(0, run(TinyRecipe.runArgs(dir, 1)), err.toString(StandardCharsets.UTF_8));
    String recipe = Files.readString(dir.resolve("recipe.yaml"));
    // The checkpoint keeps the recipe that trained it.
    assertEquals(recipe, Files.readString(dir.resolve("global_step_1/recipe.yaml")));

    assertEquals(2, run(TinyRecipe.runArgs(dir, 2, "custom_reward_function.name=nosuch")));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("nosuch"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("custom_reward_function.name: unknown"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(recipe, Files.readString(dir.resolve("recipe.yaml")), "failed start kept it");

    assertEquals(2, run(TinyRecipe.runArgs(dir, 2, "trainer.resume_mode=disable")));
    String msg = err.toString(StandardCharsets.UTF_8);
    assertTrue(msg.contains("already holds checkpoints (latest global_step_1)"), msg);
    assertTrue(msg.contains("set another trainer.default_local_dir"), msg);
    assertEquals(recipe, Files.readString(dir.resolve("recipe.yaml")));

    Path missing = dir.resolve("global_step_99");
    assertEquals(2, run(TinyRecipe.runArgs(dir, 2, "trainer.resume_mode=" + missing)));
    msg = err.toString(StandardCharsets.UTF_8);
    assertTrue(
        msg.contains("recipe key 'trainer.resume_mode': " + missing + " is not a checkpoint"), msg);
    assertEquals(1, msg.strip().lines().count(), msg);

    // A rerun with more steps resumes from the checkpoint (its recipe.yaml beside the weights).
    assertEquals(0, run(TinyRecipe.runArgs(dir, 2)), err.toString(StandardCharsets.UTF_8));
    assertTrue(Files.isRegularFile(dir.resolve("global_step_2/recipe.yaml")));
    long stepTwo =
        Files.readAllLines(dir.resolve("metrics.jsonl")).stream()
            .filter(l -> l.startsWith("{\"step\":2,"))
            .count();
    assertEquals(1, stepTwo);

    // eval of the run directory evaluates its latest checkpoint with that checkpoint's recipe.
    assertEquals(0, run("eval", dir.toString()), err.toString(StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("evaluating " + dir.resolve("global_step_2")), printed);
    assertTrue(printed.contains("val-core/synthetic/arith/acc/mean@1 = "), printed);
  }

  @Test
  void rerunOfAFinishedRunReportsWhatItsRecordsMeasured() throws Exception {
    Path dir = tmp.resolve("done");
    RunSummary first =
        new Commands(quiet())
            .run("recipes/arith-grpo.yaml", TinyRecipe.overrides(dir, 2, "trainer.test_freq=1"));
    RunSummary again =
        new Commands(quiet())
            .run("recipes/arith-grpo.yaml", TinyRecipe.overrides(dir, 2, "trainer.test_freq=1"));
    assertEquals(2, again.lastStep());
    assertEquals(first.finalAccuracy(), again.finalAccuracy());
    assertEquals(2, again.finalAccuracyStep());
    assertEquals(
        first.render().lines().skip(1).findFirst(), again.render().lines().skip(1).findFirst());
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }
}
