package dev.javelin.recipes.ray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.rewards.RewardSpec;
import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Worker JVMs get the driver's classes, never a second copy of Ray. */
class CodeSearchPathTest {

  @Test
  void expandsManifestOnlyJarsAndLeavesRayOut(@TempDir Path dir) throws Exception {
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Path lib = Files.createFile(dir.resolve("lib.jar"));
    Path rayApi = Files.createFile(dir.resolve("ray-api-2.9.3.jar"));
    Path rayDist = Files.createFile(dir.resolve("ray_dist.jar"));
    Path booter = dir.resolve("booter.jar");
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(Attributes.Name.CLASS_PATH, "classes/ lib.jar ray-api-2.9.3.jar");
    try (OutputStream out = Files.newOutputStream(booter);
        JarOutputStream jar = new JarOutputStream(out, m)) {
      jar.flush();
    }
    String cp = String.join(File.pathSeparator, booter.toString(), rayDist.toString(), "missing");
    assertEquals(
        List.of(booter.toString(), classes.toString(), lib.toString()), CodeSearchPath.of(cp));
    assertEquals(List.of(), CodeSearchPath.of(rayApi.toString()));
  }

  @Test
  void addsTheCustomRewardCodeOnce(@TempDir Path dir) throws Exception {
    Path lib = Files.createFile(dir.resolve("lib.jar"));
    Path reward = Files.createFile(dir.resolve("reward.jar"));
    Path src = dir.resolve("R.java");
    Files.writeString(src, "public class R {}\n");
    assertEquals(
        List.of(lib.toString(), reward.toString()),
        CodeSearchPath.forRecipe(
            lib.toString(), new RewardSpec(reward.toString(), null, "x", null)));
    List<String> compiled =
        CodeSearchPath.forRecipe(lib.toString(), new RewardSpec(src.toString(), null, "R", null));
    assertEquals(2, compiled.size());
    assertTrue(Files.isRegularFile(Path.of(compiled.get(1), "R.class")), compiled.toString());
    assertEquals(
        List.of(lib.toString()),
        CodeSearchPath.forRecipe(lib.toString(), new RewardSpec(null, "x", null)));
  }
}
