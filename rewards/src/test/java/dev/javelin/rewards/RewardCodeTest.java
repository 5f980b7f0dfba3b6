package dev.javelin.rewards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code custom_reward_function.path}: a .java file, a classes folder, a jar; compile errors. */
class RewardCodeTest {
  /** The reward of docs/REWARDS.md, with a provider so it also resolves by registered name. */
  static final String LENGTH_PENALTY =
      """
      package com.example;

      import dev.javelin.rewards.*;
      import java.util.Map;

      public final class LengthPenalty implements RewardFunction {
        private final double scale;
        public LengthPenalty(Map<String, Object> kwargs) {
          scale = RewardKwargs.of("length_penalty", kwargs, "scale").getDouble("scale", 1e-3);
        }
        @Override public String name() { return "length_penalty"; }
        @Override public RewardResult score(RewardInput in) {
          return RewardResult.of(-scale * in.response().length());
        }
        public static final class Provider implements RewardFunctionProvider {
          @Override public String name() { return "length_penalty"; }
          @Override public RewardFunction create(Map<String, Object> kwargs) {
            return new LengthPenalty(kwargs);
          }
        }
      }
      """;

  @TempDir Path tmp;

  private Path source(String name, String text) throws IOException {
    Path src = tmp.resolve(name);
    Files.writeString(src, text);
    return src;
  }

  private static double score(RewardSpec spec, String response) {
    RewardFunction fn = RewardRegistry.forSpec(spec).resolve(spec);
    return fn.score(RewardInput.of("any", response, "x")).score();
  }

  @Test
  void javaFileCompilesAndResolvesByClassOrName() throws IOException {
    String path = source("LengthPenalty.java", LENGTH_PENALTY).toString();
    Map<String, Object> kw = Map.of("scale", 0.5);
    assertEquals(-2.0, score(new RewardSpec(path, null, "com.example.LengthPenalty", kw), "abcd"));
    assertEquals(-2.0, score(new RewardSpec(path, "com.example.LengthPenalty", null, kw), "abcd"));
    // A second open reuses the compiled folder.
    assertEquals(RewardCode.open(path).root(), RewardCode.open(path).root());
  }

  @Test
  void defaultPackageClassBySimpleName() throws IOException {
    String text =
        LENGTH_PENALTY.replace("package com.example;", "").replace("class Provider", "class P");
    String path = source("LengthPenalty.java", text).toString();
    assertEquals(
        -0.004, score(new RewardSpec(path, null, "LengthPenalty", Map.of()), "abcd"), 1e-12);
  }

  @Test
  void compileErrorsAreFileLineMessage() throws IOException {
    Path src = source("Broken.java", "public class Broken {\n  int x = ;\n}\n");
    RewardConfigException e =
        assertThrows(RewardConfigException.class, () -> RewardCode.open(src.toString()));
    assertTrue(e.getMessage().startsWith("path: "), e.getMessage());
    assertEquals(RewardConfigException.Field.PATH, e.field().orElseThrow());
    assertTrue(e.detail().startsWith(src + " does not compile:"), e.detail());
    assertTrue(e.getMessage().contains(src + ":2: illegal start of expression"), e.getMessage());
  }

  @Test
  void compileErrorsShowJavacsWholeDiagnostic() throws IOException {
    Path src =
        source("Sym.java", "public class Sym {\n  int f() {\n    return undefinedThing;\n  }\n}\n");
    String m =
        assertThrows(RewardConfigException.class, () -> RewardCode.open(src.toString()))
            .getMessage();
    assertTrue(m.contains(src + ":3: cannot find symbol"), m);
    assertTrue(m.contains("symbol:   variable undefinedThing"), m);
    assertTrue(m.contains("location: class Sym"), m);
    assertTrue(m.contains("    return undefinedThing;\n           ^"), m);
  }

  @Test
  void aMisspeltClassInAPathFileNamesTheFileAndTheNearestClass() throws IOException {
    String path = source("LengthPenalty.java", LENGTH_PENALTY).toString();
    RewardSpec byClass = new RewardSpec(path, "com.example.LenghtPenalty", null, null);
    String m =
        assertThrows(
                RewardConfigException.class, () -> RewardRegistry.forSpec(byClass).resolve(byClass))
            .getMessage();
    assertTrue(m.contains("class 'com.example.LenghtPenalty' not found in " + path), m);
    assertTrue(m.contains("did you mean 'com.example.LengthPenalty'?"), m);
    RewardSpec byName = new RewardSpec(path, null, "LengthPenalty", null);
    String n =
        assertThrows(
                RewardConfigException.class, () -> RewardRegistry.forSpec(byName).resolve(byName))
            .getMessage();
    assertTrue(n.contains("did you mean 'com.example.LengthPenalty'?"), n);
  }

  @Test
  void aNoArgRewardBesideTheDispatchersKwargsIsMadeWithItsNoArgConstructor() throws IOException {
    String path =
        source(
                "Ones.java",
                "import dev.javelin.rewards.*;\n"
                    + "public class Ones implements RewardFunction {\n"
                    + "  public String name() { return \"ones\"; }\n"
                    + "  public RewardResult score(RewardInput in) { return RewardResult.of(1); }\n"
                    + "}\n")
            .toString();
    // recipes/README's sums-grpo.yaml keeps {gsm8k: {method: flexible}} for the dispatcher
    Map<String, Object> dispatcherKwargs = Map.of("gsm8k", Map.of("method", "flexible"));
    assertEquals(1.0, score(new RewardSpec(path, "Ones", null, dispatcherKwargs), "x"));
    assertEquals(1.0, score(new RewardSpec(path, null, "Ones", Map.of()), "x"));
  }

  @Test
  void classesFolderAndJarWithARegisteredProvider() throws IOException {
    Path classes = RewardCode.open(source("LengthPenalty.java", LENGTH_PENALTY).toString()).root();
    Path dir = tmp.resolve("classes");
    copyTree(classes, dir);
    Path services = dir.resolve("META-INF/services/" + RewardFunctionProvider.class.getName());
    Files.createDirectories(services.getParent());
    Files.writeString(services, "com.example.LengthPenalty$Provider\n");
    RewardSpec byName = new RewardSpec(dir.toString(), null, "length_penalty", Map.of());
    assertEquals(-0.003, score(byName, "abc"), 1e-12);
    assertTrue(RewardRegistry.forSpec(byName).names().contains("length_penalty"));

    Path jar = tmp.resolve("reward.jar");
    jar(dir, jar);
    assertEquals(
        -0.003, score(new RewardSpec(jar.toString(), null, "length_penalty", null), "abc"));
    assertEquals(
        -0.003,
        score(new RewardSpec(jar.toString(), "com.example.LengthPenalty", null, null), "abc"));
  }

  @Test
  void badPathsAreOneClearLine() throws IOException {
    String py = source("my_reward.py", "def compute_score(): pass\n").toString();
    assertTrue(
        assertThrows(RewardConfigException.class, () -> RewardCode.open(py))
            .getMessage()
            .contains("is a Python file"));
    String missing = tmp.resolve("nope.java").toString();
    assertTrue(
        assertThrows(RewardConfigException.class, () -> RewardCode.open(missing))
            .getMessage()
            .contains("does not exist"));
    String path = source("LengthPenalty.java", LENGTH_PENALTY).toString();
    RewardSpec unknown = new RewardSpec(path, null, "nosuch", null);
    assertTrue(
        assertThrows(
                RewardConfigException.class, () -> RewardRegistry.forSpec(unknown).resolve(unknown))
            .getMessage()
            .contains("unknown reward function 'nosuch'"));
  }

  @Test
  void recipeSectionAcceptsPath() {
    RewardSpec s = RewardSpec.fromRecipe(Map.of("path", "r.jar", "name", "n"));
    assertEquals("r.jar", s.path());
    assertEquals("n", s.name());
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  private static void jar(Path dir, Path jar) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    try (OutputStream os = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(os)) {
      for (Path f : files) {
        out.putNextEntry(new JarEntry(dir.relativize(f).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(f));
        out.closeEntry();
      }
    }
  }
}
