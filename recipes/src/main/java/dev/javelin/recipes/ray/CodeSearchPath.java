package dev.javelin.recipes.ray;

import dev.javelin.rewards.RewardCode;
import dev.javelin.rewards.RewardSpec;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The job's code search path: this JVM's class path as absolute jars and folders, with
 * manifest-only jars (surefire's and failsafe's booter) expanded and Ray's own jars left out, since
 * every worker JVM already starts with the cluster's {@code ray_dist.jar} and a second copy of
 * Ray's classes would shadow it.
 */
public final class CodeSearchPath {
  private CodeSearchPath() {}

  /**
   * The entries workers need for {@code recipe}: {@link #of} plus the code named by {@code
   * custom_reward_function.path} (a jar, or the classes folder a {@code .java} file compiles to).
   */
  public static List<String> forRecipe(String classPath, RewardSpec reward) {
    List<String> out = of(classPath);
    if (reward.path() != null) {
      String root = RewardCode.open(reward.path()).root().toString();
      if (!out.contains(root)) {
        out.add(root);
      }
    }
    return out;
  }

  /** The entries of {@code classPath} (a {@code java.class.path} value) workers need. */
  public static List<String> of(String classPath) {
    Set<String> out = new LinkedHashSet<>();
    for (String entry : classPath.split(File.pathSeparator, -1)) {
      if (!entry.isBlank()) {
        add(Path.of(entry).toAbsolutePath().normalize(), out, 0);
      }
    }
    return new ArrayList<>(out);
  }

  private static void add(Path entry, Set<String> out, int depth) {
    if (!Files.exists(entry) || isRay(entry)) {
      return;
    }
    if (!out.add(entry.toString()) || depth >= 2) {
      return;
    }
    for (Path p : manifestClassPath(entry)) {
      add(p, out, depth + 1);
    }
  }

  /** Ray's own jars: the Maven artifacts and the Python package's bundle. */
  static boolean isRay(Path entry) {
    String name = entry.getFileName() == null ? "" : entry.getFileName().toString();
    return name.startsWith("ray-api-")
        || name.startsWith("ray-runtime-")
        || name.equals("ray_dist.jar");
  }

  /** The Class-Path entries of a jar's manifest, resolved against the jar's folder. */
  private static List<Path> manifestClassPath(Path entry) {
    if (!Files.isRegularFile(entry) || !entry.toString().endsWith(".jar")) {
      return List.of();
    }
    try (JarFile jar = new JarFile(entry.toFile())) {
      Manifest m = jar.getManifest();
      String cp = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
      if (cp == null || cp.isBlank()) {
        return List.of();
      }
      URI base = entry.getParent().toUri();
      List<Path> out = new ArrayList<>();
      for (String ref : cp.trim().split("\\s+", -1)) {
        out.add(Path.of(base.resolve(ref)));
      }
      return out;
    } catch (IOException | IllegalArgumentException e) {
      // An unreadable jar or a Class-Path entry that is no file URI: the JVM skips it too.
      return List.of();
    }
  }
}
