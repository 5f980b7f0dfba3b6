package dev.javelin.recipes.jobs;

import dev.javelin.recipes.ray.CodeSearchPath;
import dev.javelin.rewards.RewardSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * What a job ships: a small working dir (the launcher script and a local recipe file) and the class
 * path as {@code java_jars} packages. The project's own code is one package; third-party jars are
 * others, each under {@link JobPackage#MAX_BYTES}, so they are uploaded once and found again by
 * hash while only the project package changes between builds.
 *
 * @param workingDir the working-dir package
 * @param jars the java_jars packages, project first
 * @param recipeInJob the recipe argument as the job sees it
 */
public record JobBundle(JobPackage workingDir, List<JobPackage> jars, String recipeInJob) {
  private static final String RECIPE_DIR = "recipe/";

  /** Validates. */
  public JobBundle {
    Objects.requireNonNull(workingDir, "workingDir");
    jars = List.copyOf(jars);
    Objects.requireNonNull(recipeInJob, "recipeInJob");
  }

  /**
   * Bundles this JVM's class path and the recipe: the entries Ray workers get as the job's code
   * search path ({@link CodeSearchPath}: manifest-only jars expanded, Ray's own jars left out since
   * the cluster brings {@code ray_dist.jar}, and they would push the upload over 100 MiB).
   */
  public static JobBundle ofThisJvm(String recipeArg, RewardSpec reward) {
    List<Path> classPath = new ArrayList<>();
    CodeSearchPath.forRecipe(System.getProperty("java.class.path"), reward)
        .forEach(e -> classPath.add(Path.of(e)));
    return of(classPath, recipeArg);
  }

  /**
   * Bundles {@code classPath} and the recipe: a file that exists here is shipped; anything else (a
   * bundled name such as {@code recipes/arith-grpo.yaml}) is passed through.
   */
  public static JobBundle of(List<Path> classPath, String recipeArg) {
    return of(classPath, recipeArg, JobPackage.MAX_BYTES - (1 << 20));
  }

  /** The same with third-party packages of at most {@code binBytes} of jars each. */
  static JobBundle of(List<Path> classPath, String recipeArg, long binBytes) {
    Map<String, byte[]> wd = new LinkedHashMap<>();
    wd.put(LauncherScript.PATH, LauncherScript.TEXT.getBytes(StandardCharsets.UTF_8));
    String recipe = recipeArg;
    Path local = Path.of(recipeArg);
    if (Files.isRegularFile(local) && local.getFileName() != null) {
      recipe = RECIPE_DIR + local.getFileName();
      wd.put(recipe, read(local));
    }
    Map<String, byte[]> project = new LinkedHashMap<>();
    List<Path> thirdParty = new ArrayList<>();
    for (Path p : classPath) {
      if (Files.isDirectory(p)) {
        project.put(uniqueName(project, folderJarName(p)), jarOf(p));
      } else if (p.getFileName() != null && p.getFileName().toString().startsWith("javelin-")) {
        project.put(uniqueName(project, p.getFileName().toString()), read(p));
      } else if (p.toString().endsWith(".jar")) {
        thirdParty.add(p);
      }
    }
    List<JobPackage> jars = new ArrayList<>();
    if (!project.isEmpty()) {
      jars.add(JobPackage.of(project));
    }
    jars.addAll(binned(thirdParty, binBytes));
    return new JobBundle(JobPackage.of(wd), jars, recipe);
  }

  /** Every package, working dir first. */
  public List<JobPackage> all() {
    List<JobPackage> out = new ArrayList<>(jars.size() + 1);
    out.add(workingDir);
    out.addAll(jars);
    return out;
  }

  /** The java_jars folders, space-separated, for the launcher's {@code JAVELIN_JOB_JARS}. */
  public String jarFolders() {
    return String.join(" ", jars.stream().map(JobPackage::folderName).toList());
  }

  /** Third-party jars in name order, cut into packages under the upload limit. */
  private static List<JobPackage> binned(List<Path> jars, long binBytes) {
    List<Path> sorted = new ArrayList<>(jars);
    sorted.sort(
        (a, b) -> String.valueOf(a.getFileName()).compareTo(String.valueOf(b.getFileName())));
    List<JobPackage> out = new ArrayList<>();
    Map<String, byte[]> bin = new LinkedHashMap<>();
    long size = 0;
    for (Path p : sorted) {
      byte[] b = read(p);
      if (b.length > binBytes) {
        throw new IllegalArgumentException(
            p + " (" + (b.length >> 20) + " MiB) is too large for one upload to the Ray dashboard");
      }
      if (size + b.length > binBytes) {
        out.add(JobPackage.of(bin));
        bin = new LinkedHashMap<>();
        size = 0;
      }
      bin.put(uniqueName(bin, p.getFileName().toString()), b);
      size += b.length;
    }
    if (!bin.isEmpty()) {
      out.add(JobPackage.of(bin));
    }
    return out;
  }

  /** {@code recipes/target/classes} → {@code recipes-classes.jar}. */
  static String folderJarName(Path dir) {
    Path parent = dir.getParent();
    Path module = parent == null ? null : parent.getParent();
    String prefix =
        module == null || module.getFileName() == null ? "" : module.getFileName() + "-";
    return prefix + dir.getFileName() + ".jar";
  }

  private static String uniqueName(Map<String, byte[]> taken, String name) {
    String n = name;
    for (int i = 2; taken.containsKey(n); i++) {
      n = i + "-" + name;
    }
    return n;
  }

  /** A jar of a class folder, entries sorted and timestamps fixed so its hash is stable. */
  static byte[] jarOf(Path dir) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Stream<Path> walk = Files.walk(dir);
        JarOutputStream jar = new JarOutputStream(bytes)) {
      for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
        JarEntry e = new JarEntry(dir.relativize(f).toString().replace('\\', '/'));
        e.setTime(315_532_800_000L);
        jar.putNextEntry(e);
        jar.write(Files.readAllBytes(f));
        jar.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot jar the class folder " + dir, e);
    }
    return bytes.toByteArray();
  }

  private static byte[] read(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + p, e);
    }
  }
}
