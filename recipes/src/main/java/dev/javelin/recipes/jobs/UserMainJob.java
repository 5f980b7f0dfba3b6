package dev.javelin.recipes.jobs;

import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.ray.CodeSearchPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;

/**
 * A job whose driver is the user's own main class ({@code javelin submit --jar my-job.jar --main
 * com.me.MyJob [args]}): the user's jar ships beside Javelin's class path and the launcher runs
 * {@code com.me.MyJob} instead of the Javelin CLI. Inside the job Ray sets {@code RAY_ADDRESS}, so
 * a {@code RunSpec} the main builds runs its trainer and samplers as workers of the cluster.
 */
public final class UserMainJob {
  /** The launcher's environment variable naming the main class to run. */
  static final String MAIN_ENV = "JAVELIN_JOB_MAIN";

  private UserMainJob() {}

  /**
   * The plan: this JVM's class path plus {@code jar}, running {@code mainClass} with {@code args}.
   * A jar that is missing, unreadable or without the class fails here, before any upload.
   */
  public static JobPlan plan(
      Path jar, String mainClass, List<String> args, Map<String, String> env) {
    requireMainIn(jar, mainClass);
    List<Path> classPath = new ArrayList<>();
    CodeSearchPath.of(System.getProperty("java.class.path"))
        .forEach(e -> classPath.add(Path.of(e)));
    classPath.add(jar.toAbsolutePath());
    Map<String, String> vars = new LinkedHashMap<>(env);
    vars.put(MAIN_ENV, mainClass);
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("javelin_main", mainClass);
    meta.put("javelin_jar", String.valueOf(jar.getFileName()));
    return new JobPlan(JobBundle.of(classPath, ""), args, vars, meta);
  }

  /** One line, naming the jar and what to do, when {@code mainClass} is not a class in it. */
  static void requireMainIn(Path jar, String mainClass) {
    if (!Files.isRegularFile(jar)) {
      throw new ConfigException(
          "submit --jar " + jar + ": no such file (build your job's jar first)");
    }
    String entry = mainClass.replace('.', '/') + ".class";
    try (JarFile j = new JarFile(jar.toFile())) {
      if (j.getEntry(entry) == null) {
        List<String> classes =
            j.stream()
                .map(e -> e.getName())
                .filter(n -> n.endsWith(".class") && !n.contains("$"))
                .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                .limit(10)
                .toList();
        throw new ConfigException(
            "submit --main "
                + mainClass
                + ": no such class in "
                + jar
                + " (classes there: "
                + classes
                + ")");
      }
    } catch (IOException e) {
      throw new ConfigException(
          "submit --jar " + jar + ": not a readable jar (" + e.getMessage() + ")", e);
    }
  }
}
