package dev.javelin.recipes.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobPackagingTest {
  @TempDir Path tmp;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static Map<String, byte[]> unzip(byte[] zip) throws IOException {
    Map<String, byte[]> out = new LinkedHashMap<>();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        out.put(e.getName(), in.readAllBytes());
      }
    }
    return out;
  }

  @Test
  void packagesAreNamedByContentWhateverTheInsertionOrder() throws IOException {
    Map<String, byte[]> ab = new LinkedHashMap<>();
    ab.put("a", bytes("1"));
    ab.put("b", bytes("2"));
    Map<String, byte[]> ba = new LinkedHashMap<>();
    ba.put("b", bytes("2"));
    ba.put("a", bytes("1"));
    JobPackage p = JobPackage.of(ab);
    assertEquals(p.name(), JobPackage.of(ba).name());
    assertNotEquals(p.name(), JobPackage.of(Map.of("a", bytes("1"), "b", bytes("3"))).name());
    assertTrue(p.name().matches("_ray_pkg_[0-9a-f]{32}\\.zip"), p.name());
    assertEquals("gcs://" + p.name(), p.uri());
    assertEquals(p.name().replace(".zip", ""), p.folderName());
    assertEquals(List.of("a", "b"), new ArrayList<>(unzip(p.zip()).keySet()));
  }

  @Test
  void bundleSplitsProjectCodeFromThirdPartyJarsAndShipsALocalRecipe() throws IOException {
    Path classes = Files.createDirectories(tmp.resolve("recipes/target/classes/dev"));
    Files.writeString(classes.resolve("A.class"), "x");
    Path ours = Files.writeString(tmp.resolve("javelin-grpo-0.1.0-SNAPSHOT.jar"), "grpo");
    Path theirs = Files.writeString(tmp.resolve("jackson-core-2.21.3.jar"), "jackson");
    Path recipe = Files.writeString(tmp.resolve("my.yaml"), "trainer: {}\n");
    JobBundle b =
        JobBundle.of(
            List.of(tmp.resolve("recipes/target/classes"), ours, theirs), recipe.toString());
    assertEquals("recipe/my.yaml", b.recipeInJob());
    Map<String, byte[]> wd = unzip(b.workingDir().zip());
    assertEquals(List.of("bin/javelin-job.sh", "recipe/my.yaml"), new ArrayList<>(wd.keySet()));
    assertEquals(2, b.jars().size());
    Map<String, byte[]> project = unzip(b.jars().get(0).zip());
    assertEquals(
        List.of("javelin-grpo-0.1.0-SNAPSHOT.jar", "recipes-classes.jar"),
        new ArrayList<>(project.keySet()));
    assertEquals(
        "x",
        new String(
            unzip(project.get("recipes-classes.jar")).get("dev/A.class"), StandardCharsets.UTF_8));
    assertEquals(
        List.of("jackson-core-2.21.3.jar"), new ArrayList<>(unzip(b.jars().get(1).zip()).keySet()));
    assertEquals(b.jars().get(0).folderName() + " " + b.jars().get(1).folderName(), b.jarFolders());
    // Rebuilding the same inputs gives the same packages: nothing is uploaded twice.
    JobBundle again =
        JobBundle.of(
            List.of(tmp.resolve("recipes/target/classes"), ours, theirs), recipe.toString());
    assertEquals(b.all(), again.all());
  }

  @Test
  void aBundledRecipeNameIsPassedThrough() {
    JobBundle b = JobBundle.of(List.of(), "recipes/arith-grpo.yaml");
    assertEquals("recipes/arith-grpo.yaml", b.recipeInJob());
    assertTrue(b.jars().isEmpty());
  }

  @Test
  void thirdPartyJarsAreCutIntoPackagesUnderTheUploadLimit() throws IOException {
    List<Path> jars = new ArrayList<>();
    for (String name : List.of("d.jar", "a.jar", "c.jar", "b.jar")) {
      jars.add(Files.write(tmp.resolve(name), new byte[400]));
    }
    JobBundle b = JobBundle.of(jars, "r.yaml", 1000);
    List<List<String>> contents = new ArrayList<>();
    for (JobPackage p : b.jars()) {
      contents.add(new ArrayList<>(unzip(p.zip()).keySet()));
    }
    assertEquals(List.of(List.of("a.jar", "b.jar"), List.of("c.jar", "d.jar")), contents);
    Path big = Files.write(tmp.resolve("huge.jar"), new byte[1001]);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> JobBundle.of(List.of(big), "r", 1000));
    assertTrue(e.getMessage().contains("too large for one upload"), e.getMessage());
  }

  @Test
  void planQuotesArgumentsForTheShellAndPrintsTheRayCommand() {
    JobBundle b = JobBundle.of(List.of(), "recipes/arith-grpo.yaml");
    JobPlan plan =
        new JobPlan(
            b,
            List.of("run", "recipes/arith-grpo.yaml", "trainer.ray=cluster", "a.b=it's x"),
            Map.of(),
            Map.of());
    assertEquals(
        "sh bin/javelin-job.sh run recipes/arith-grpo.yaml trainer.ray=cluster 'a.b=it'\\''s x'",
        plan.entrypoint());
    String ray = plan.rayJobSubmitCommand("http://127.0.0.1:8265/");
    assertTrue(
        ray.startsWith(
            "ray job submit --address http://127.0.0.1:8265/ --runtime-env-json '{\"working_dir\":\""
                + b.workingDir().uri()),
        ray);
    assertTrue(ray.endsWith(" -- " + plan.entrypoint()), ray);
    assertThrows(
        IllegalArgumentException.class, () -> new JobPlan(b, List.of(), Map.of(), Map.of()));
  }

  @Test
  void aStoppedJobHasTimeToSaveItsCheckpoint() {
    JobPlan plan =
        new JobPlan(
            JobBundle.of(List.of(), "recipes/arith-grpo.yaml"),
            List.of("run", "recipes/arith-grpo.yaml"),
            Map.of(),
            Map.of());
    // Ray's default grace between SIGTERM and SIGKILL (3 s) cut the checkpoint off.
    String grace = plan.submission().envVars().get("RAY_JOB_STOP_WAIT_TIME_S");
    assertEquals(String.valueOf(JobPlan.STOP_GRACE_S), grace);
    assertTrue(JobPlan.STOP_GRACE_S >= 300);
  }
}
