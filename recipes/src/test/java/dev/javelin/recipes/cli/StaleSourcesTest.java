package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher rebuilds for changed sources, never for files a run writes (recipe.yaml copies). */
class StaleSourcesTest {
  private static final Path SCRIPT = Path.of("../tools/setup/stale-sources.sh").toAbsolutePath();

  @TempDir Path root;

  private Path file(String rel, long epochSecond) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, "x");
    Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochSecond(epochSecond)));
    return p;
  }

  private String stale(Path stamp) throws Exception {
    Process p =
        new ProcessBuilder("bash", SCRIPT.toString(), root.toString(), stamp.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    p.waitFor();
    return out;
  }

  @Test
  void runOutputsNeverTriggerARebuild() throws Exception {
    file("pom.xml", 1000);
    file("recipes/pom.xml", 1000);
    file("recipes/src/main/resources/recipes/a.yaml", 1000);
    Path stamp = file("recipes/target/javelin.stamp", 2000);
    file("checkpoints/arith/recipe.yaml", 3000);
    file("checkpoints/arith/global_step_5/recipe.yaml", 3000);
    file("my-recipe.yaml", 3000);
    file("recipes/target/classes/x.yaml", 3000);
    assertEquals("", stale(stamp));
    Path changed = file("recipes/src/main/resources/recipes/a.yaml", 3000);
    assertEquals(changed.toString(), stale(stamp));
    file("recipes/src/main/resources/recipes/a.yaml", 1000);
    Path pom = file("recipes/pom.xml", 3000);
    assertEquals(pom.toString(), stale(stamp));
  }
}
