package dev.javelin.recipes.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.recipes.config.ConfigException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code submit --jar --main}: the plan runs the user's class; a wrong jar or class is one line.
 */
class UserMainJobTest {
  @TempDir Path tmp;

  private Path jar(String... entries) throws IOException {
    Path jar = tmp.resolve("my-job.jar");
    try (OutputStream os = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(os)) {
      for (String e : entries) {
        out.putNextEntry(new JarEntry(e));
        out.write(new byte[] {1});
        out.closeEntry();
      }
    }
    return jar;
  }

  @Test
  void thePlanShipsTheJarAndRunsItsMainWithTheArguments() throws IOException {
    Path jar = jar("com/me/MyJob.class", "com/me/MyJob$1.class");
    JobPlan plan = UserMainJob.plan(jar, "com.me.MyJob", List.of("a", "b c"), Map.of("K", "v"));
    assertEquals("sh bin/javelin-job.sh a 'b c'", plan.entrypoint());
    assertEquals("com.me.MyJob", plan.submission().envVars().get(UserMainJob.MAIN_ENV));
    assertEquals("v", plan.submission().envVars().get("K"));
    assertEquals("com.me.MyJob", plan.metadata().get("javelin_main"));
    boolean shipped = false;
    for (JobPackage p : plan.bundle().jars()) {
      shipped |= entries(p).contains("my-job.jar");
    }
    assertTrue(shipped, "the user's jar is one of the job's packages");
    assertEquals(
        "sh bin/javelin-job.sh",
        UserMainJob.plan(jar, "com.me.MyJob", List.of(), Map.of()).entrypoint(),
        "a main without arguments");
  }

  private static List<String> entries(JobPackage p) throws IOException {
    List<String> names = new ArrayList<>();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(p.zip()))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        names.add(e.getName());
      }
    }
    return names;
  }

  @Test
  void aMissingJarOrClassIsOneLine() throws IOException {
    Path jar = jar("com/me/MyJob.class");
    String wrongClass =
        assertThrows(ConfigException.class, () -> UserMainJob.requireMainIn(jar, "com.me.MyJb"))
            .getMessage();
    assertEquals(
        "submit --main com.me.MyJb: no such class in " + jar + " (classes there: [com.me.MyJob])",
        wrongClass);
    Path none = tmp.resolve("none.jar");
    assertTrue(
        assertThrows(ConfigException.class, () -> UserMainJob.requireMainIn(none, "a.B"))
            .getMessage()
            .contains("no such file"));
    Path notAJar = Files.writeString(tmp.resolve("x.jar"), "text");
    assertTrue(
        assertThrows(ConfigException.class, () -> UserMainJob.requireMainIn(notAJar, "a.B"))
            .getMessage()
            .contains("not a readable jar"));
  }
}
