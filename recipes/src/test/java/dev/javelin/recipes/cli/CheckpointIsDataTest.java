package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Evaluating a checkpoint never runs the code, nor writes where, its recorded recipe names. */
class CheckpointIsDataTest {
  @TempDir Path tmp;

  /** A reward whose mere loading leaves a file behind. */
  static String hostileReward(Path marker) {
    return """
        package evil;
        import dev.javelin.rewards.*;
        public final class Planted implements RewardFunction {
          static {
            try {
              java.nio.file.Files.writeString(java.nio.file.Path.of("%s"), "ran");
            } catch (java.io.IOException e) {
              throw new RuntimeException(e);
            }
          }
          public String name() { return "planted"; }
          public RewardResult score(RewardInput in) { return RewardResult.of(0); }
        }
        """
        .formatted(marker.toString().replace("\\", "\\\\"));
  }

  @Test
  void evalOfACheckpointNamingCodeRunsNoneOfItAndWritesBesideTheCheckpoint() throws Exception {
    Path run = tmp.resolve("run");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertEquals(
        0, Main.run(TinyRecipe.runArgs(run, 1), o, e), err.toString(StandardCharsets.UTF_8));

    Path marker = tmp.resolve("planted-ran");
    Path src = Files.writeString(tmp.resolve("Planted.java"), hostileReward(marker));
    Path elsewhere = tmp.resolve("elsewhere");
    Path ckpt = run.resolve("global_step_1");
    Path recorded = ckpt.resolve("recipe.yaml");
    StringBuilder yaml = new StringBuilder();
    for (String line : Files.readAllLines(recorded, StandardCharsets.UTF_8)) {
      if (!line.startsWith("trainer.default_local_dir:")
          && !line.startsWith("custom_reward_function.")) {
        yaml.append(line).append('\n');
      }
    }
    yaml.append("custom_reward_function.path: ").append(src).append('\n');
    yaml.append("custom_reward_function.name: evil.Planted\n");
    yaml.append("trainer.default_local_dir: ").append(elsewhere).append('\n');
    Files.writeString(recorded, yaml, StandardCharsets.UTF_8);
    Files.delete(run.resolve("recipe.yaml")); // the checkpoint's own copy is what eval reads

    out.reset();
    assertEquals(
        0,
        Main.run(new String[] {"eval", ckpt.toString()}, o, e),
        err.toString(StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertFalse(Files.exists(marker), "the checkpoint's reward code ran");
    assertFalse(Files.exists(elsewhere), "eval wrote where the checkpoint's recipe said");
    assertTrue(Files.isRegularFile(run.resolve(EvalReport.FILE)), "eval report beside the run");
    assertTrue(printed.contains("names reward code " + src), printed);
    assertTrue(
        printed.contains("custom_reward_function.path=" + src)
            && printed.contains("custom_reward_function.name=evil.Planted"),
        printed);
  }
}
