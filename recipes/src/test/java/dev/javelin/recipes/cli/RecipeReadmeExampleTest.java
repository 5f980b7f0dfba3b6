package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The custom-dataset example of recipes/README.md, run exactly as written there. */
class RecipeReadmeExampleTest {
  private static final Path README = Path.of("README.md");

  /** The fenced block of {@code lang} that follows the heading {@code ## Custom datasets}. */
  static String block(String readme, String lang) {
    int section = readme.indexOf("## Custom datasets");
    assertTrue(section >= 0, "recipes/README.md lost its custom-dataset section");
    int open = readme.indexOf("```" + lang + "\n", section);
    int start = open + lang.length() + 4;
    return readme.substring(start, readme.indexOf("```", start));
  }

  @Test
  void customJsonlDatasetTrains(@TempDir Path dir) throws Exception {
    String readme = Files.readString(README);
    Files.writeString(dir.resolve("sums.jsonl"), block(readme, "jsonl"));
    String yaml =
        block(readme, "yaml").replace("[sums.jsonl]", "[" + dir.resolve("sums.jsonl") + "]");
    Path recipe = Files.writeString(dir.resolve("sums-grpo.yaml"), yaml);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {
              "run", recipe.toString(), "trainer.default_local_dir=" + dir.resolve("run")
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, printed);
    assertTrue(printed.contains("4 train / 4 val prompts, 2 steps"), printed);
    String metrics = Files.readString(dir.resolve("run/metrics.jsonl"));
    assertTrue(metrics.contains("\"val-core/openai/gsm8k/acc/mean@1\""), metrics);
  }

  @Test
  void theSameRecipeWithACustomRewardWithoutKwargs(@TempDir Path dir) throws Exception {
    String readme = Files.readString(README);
    Files.writeString(dir.resolve("sums.jsonl"), block(readme, "jsonl"));
    String yaml =
        block(readme, "yaml").replace("[sums.jsonl]", "[" + dir.resolve("sums.jsonl") + "]");
    Path recipe = Files.writeString(dir.resolve("sums-grpo.yaml"), yaml);
    Path reward =
        Files.writeString(
            dir.resolve("Ones.java"),
            "import dev.javelin.rewards.*;\n"
                + "public class Ones implements RewardFunction {\n"
                + "  public String name() { return \"ones\"; }\n"
                + "  public RewardResult score(RewardInput in) { return RewardResult.of(1); }\n"
                + "}\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {
              "run",
              recipe.toString(),
              "custom_reward_function.path=" + reward,
              "custom_reward_function.name=Ones",
              "trainer.default_local_dir=" + dir.resolve("run")
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(out, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, printed);
    assertTrue(printed.contains("finished after step 2 in "), printed);
    assertTrue(printed.contains("; last-step reward 1.000"), printed);
  }
}
