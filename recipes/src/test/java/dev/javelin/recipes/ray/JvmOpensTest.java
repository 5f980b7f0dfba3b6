package dev.javelin.recipes.ray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM started without the --add-opens flags gets one line giving them, and exit code 2. */
class JvmOpensTest {
  @Test
  void thisTestJvmHasTheFlags() {
    JvmOpens.requireOpen();
  }

  @Test
  void aRunWithoutTheFlagsStopsWithOneLineGivingThem(@TempDir Path dir) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.javelin.recipes.cli.Main",
                "run",
                "arith-grpo",
                "actor_rollout_ref.model.path=",
                "actor_rollout_ref.model.warmup_recipe=",
                "trainer.default_local_dir=" + dir)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(2, p.waitFor(), out);
    List<String> lines = out.strip().lines().toList();
    String last = lines.get(lines.size() - 1);
    assertTrue(last.contains("this JVM lacks the --add-opens flags Ray needs"), out);
    assertTrue(last.contains("`" + JvmOpens.inline() + "`"), last);
    assertTrue(last.contains("Add-Opens: " + JvmOpens.manifestValue()), last);
    assertTrue(!out.contains("InaccessibleObjectException") && !out.contains("\tat "), out);
  }
}
